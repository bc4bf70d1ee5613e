// A host app against relavoi-sandbox (RELAVOI_BASE_URL and the account in
// the environment). `CallActivityHost run`: the SDK's MainLoop.run();
// `CallActivityHost host-loop`: the host names itself and runs GLib's loop itself.
import AnyIsolation
import CHostGLib
import Foundation
import RelavoiSDK

host_line_buffered_stdout()
let hostLoop = CommandLine.arguments.dropFirst().first == "host-loop"
if hostLoop {
    // What a GApplication does for its host: these become the banners' owner.
    g_set_prgname("org.example.CallActivityHost")
    g_set_application_name("Call Activity Host")
}

guard let baseURL = URL(string: Secrets.value("RELAVOI_BASE_URL")), baseURL.host != nil else {
    print("host: RELAVOI_BASE_URL is not set")
    exit(2)
}
Relavoi.initialize(
    apiKey: Secrets.relavoiApiKey, apiSecret: Secrets.relavoiApiSecret, tenantId: Secrets.relavoiTenantId,
    config: RelavoiConfig(baseURL: baseURL))

HomeView.register()
let controller = CallActivityController()
let lingering = LingeringActivity()
if hostLoop {
    lingering.attach()
} else {
    controller.attach()
}
/// How long after the call's end the host quits: past the banner's linger.
let quitDelay: Duration = hostLoop ? .seconds(LingeringActivity.linger + 2) : .seconds(2)
Relavoi.shared.events.addListener("host") { event in
    guard case .callEnded = event else { return }
    print("host: call ended")
    Task {
        try? await Task.sleep(for: quitDelay)
        print("host: quitting")
        exit(0)
    }
}

Task {
    await AnyIsolation.attach()
    await Relavoi.shared.events.connect()
    let live = await ConnectionWatcher().isLive()
    print("host: connected \(live)")
}

if hostLoop {
    MainLoop.installDispatchBridge()
    let loop = g_main_loop_new(nil, 0)
    g_main_loop_run(loop)
} else {
    MainLoop.run()
}

/// The README's pattern: the ended banner lingers, then closes.
final class LingeringActivity {
    static let linger = 3
    private let activity = LiveActivityManager()

    func attach() {
        Relavoi.shared.events.addListener("live-activity") { [activity] event in
            switch event {
            case let .callAnswered(sessionId, _):
                Task {
                    try? await activity.start(
                        sessionId: sessionId, proxyNumber: "+2348000000001", otherPartyLabel: "Chowdeck rider",
                        verified: true)
                }
            case .callEnded:
                Task { await activity.end(dismissPolicy: .after(.now + Double(Self.linger))) }
            default:
                break
            }
        }
    }
}
