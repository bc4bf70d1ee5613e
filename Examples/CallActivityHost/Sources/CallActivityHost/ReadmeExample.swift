// swift-format-ignore-file
// (Kept character for character as the page it comes from.)
// README's "Using the SDK" example, as printed there (in a function, so that
// it compiles beside main.swift; `key`, `secret` and `tenant` are the app's).
import RelavoiSDK

func readmeExample(key: String, secret: String, tenant: String) {
    Relavoi.initialize(apiKey: key, apiSecret: secret, tenantId: tenant)
    let activity = LiveActivityManager()
    Relavoi.shared.events.addListener("live-activity") { event in
        switch event {
        case let .callAnswered(sessionId, _):
            Task { try? await activity.start(sessionId: sessionId, proxyNumber: "+2348000000001",
                                             otherPartyLabel: "Chowdeck rider", verified: true) }
        case .callEnded:
            Task { await activity.end(dismissPolicy: .after(.now + 5)) }
        default: break
        }
    }
    Task { await Relavoi.shared.events.connect() }
    MainLoop.run()   // the GLib main loop; Swift concurrency runs inside it
}
