import FoundationEssentials
import RelavoiBanners
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiSettings
import RelavoiStream
import RelavoiStreamEngine

/// The running agent: settings → stream → banners, until SIGTERM/SIGINT
/// (or the end of the demo script). `main` (Agent+Main.swift) makes it.
@MainActor
public final class Agent {
    /// Exit codes: 0 fine (also "already running"), 2 usage (`AgentOptions`), 78
    /// settings (EX_CONFIG: the systemd unit does not restart on it).
    public static let exitConfig: Int32 = 78

    var settings: AgentSettings
    /// The API secret; nil when not set up (`relavoi-agent login` was not run):
    /// the agent then runs without a stream, says so, and waits for the account.
    var secret: String?
    private let demo: DemoSandbox?
    /// Where the settings came from (the top-bar answer is saved there; it is watched for changes).
    private let configPath: String
    var stream: StreamConnectionDriver?
    var callDriver: CallDriver?
    var health: ConnectionHealthDriver?
    var control: ControlService?
    /// The panel item; nil while `tray-item` is off or there is no bus.
    var tray: TrayItemController?
    /// The panels that said `ShowingCalls(true)` (the Plasma widget): the tray item hides meanwhile.
    var panels: PanelWidgets?
    /// The banners' words, read once: the banners, the Calls property and the panel item share them.
    private let phrases = BannerPhrases.localized()
    let trayPhrases: TrayPhrases
    private var settingsWatch: SettingsWatch?
    /// Pauses what plays while a call the person is shown rings (`pause-media`).
    var media: MediaPauseDriver?
    private(set) var stopping = false
    /// The demo's call has shown a banner (the demo ends once it is gone).
    private var demoCallShown = false
    /// The process's shared session-bus connection, held for its lifetime.
    static var sessionBus: BusConnection?

    init(settings: AgentSettings, secret: String?, demo: DemoSandbox?, configPath: String) {
        self.settings = settings
        self.secret = secret
        self.demo = demo
        self.configPath = configPath
        trayPhrases = TrayPhrases.localized(banner: phrases)
    }

    /// Made here, on the main context, and kept: GDBus emits `closed` (logout)
    /// in the context a connection was made in, and libsecret's sync lookup
    /// would otherwise make it in a private context that is never run again
    /// (logout went unnoticed).
    static func keepSessionBus() {
        sessionBus = try? BusConnection.session()
    }

    /// Wires the stream, the calls, the banners, the bus interface and the
    /// panel item together and runs the loop until `stop`.
    func run() -> Int32 {
        // `main` checked the URLs; the demo's and the person's both pass.
        guard let config = try? RelavoiConfig(agentSettings: settings) else { return Self.exitConfig }
        let listeners = ListenerRegistry()
        let stream = StreamConnectionDriver(
            apiKey: settings.apiKey ?? "", apiSecret: secret ?? "", tenantId: settings.tenantId ?? "", config: config,
            listeners: listeners)
        self.stream = stream
        let callDriver = CallDriver(settings: settings, lookup: RelavoiSessionLookup(stream: stream))
        callDriver.stream = stream
        self.callDriver = callDriver

        let health = ConnectionHealthDriver(phrases: trayPhrases.health, offlineAfter: settings.offlineNoticeAfter)
        self.health = health
        // The demo owns com.relavoi.Agent only when it is free (so the panels
        // show the demo call), and runs without it beside an installed agent.
        var busName: AgentBusName?
        switch AgentBusClaim.claim(
            callDriver: callDriver, phrases: phrases, lockScreen: settings.lockScreen, health: health.current,
            demo: demo != nil, onNameLost: { [weak self] in self?.stop() })
        {
        case .claimed(let service, let name): (control, busName) = (service, name)
        case .exit(let code):
            demo?.stop()
            return code
        case .demoWithoutBus: break
        }
        let banners = BannerDriver.shared
        // Heard from the moment the name is owned: a panel widget says `ShowingCalls` as soon as it sees it;
        // the GNOME extension owns its name.
        if let control {
            let panels = PanelWidgets(connection: control.connection)
            panels.onChange = { [weak self] showing in
                self?.tray?.panelShowsCalls = showing
                banners.panelShowsCalls = showing
            }
            control.onShowingCalls = { [weak panels] sender, shown in panels?.set(sender: sender, shown: shown) }
            banners.panelShowsCalls = panels.isShowing
            self.panels = panels
        }
        BannerDriver.identity.withLock { $0 = .relavoiAgent }
        banners.phrases = phrases
        banners.settings = settings.banners
        banners.prepare()
        // The demo leaves the person's settings alone: no question from it.
        if demo == nil {
            TopBarQuestion.start(
                settings: settings, configPath: configPath, bus: Self.sessionBus,
                environment: ProcessInfo.processInfo.environment)
            PlasmaPanelQuestion.start(
                settings: settings, configPath: configPath, bus: Self.sessionBus,
                environment: ProcessInfo.processInfo.environment)
        }

        callDriver.onDismissed = { [weak self] sessionId in self?.control?.emitBannerDismissed(sessionId: sessionId) }
        // The panel item (StatusNotifierItem) follows the same calls, on the banners' tick.
        startTray()
        // Its timer shows the seconds while it is shown.
        banners.addTickObserver(wantsSeconds: { [weak self] in self?.tray?.isShown ?? false }) { [weak self] in
            self?.tray?.refresh()
        }
        media = MediaPauseDriver.start(settings: settings, calls: callDriver, bus: Self.sessionBus)
        // Why calls cannot show: the notice, the Health property and the panel item say the same.
        health.onChange = { [weak self] state in
            self?.control?.healthChanged(state)
            self?.tray?.health = state
        }
        health.onSignIn = { RelavoiWindowLauncher.open(.signIn, bus: Self.sessionBus) }
        callDriver.onCallsChanged = { [weak self] in
            self?.control?.callsChanged()
            self?.tray?.refresh()
            self?.endDemoAfterItsCall()
        }
        listeners.set("agent") { event in callDriver.handle(event) }
        stream.addConnectionStateListener("agent") { [weak self] state in
            Log.info("stream \(state.rawValue)")
            self?.control?.connectedChanged()
            health.streamStateChanged(state)
        }
        stream.addTokenRefusedListener("agent") { health.tokenRefused() }
        UnixSignals.onTerminate { [weak self] signal in
            MainActor.assumeIsolated {
                Log.message("signal \(signal): closing banners and the stream")
                self?.stop()
            }
        }
        if let demo {
            demo.onQuit { [weak self] in self?.stop() }
            Log.message("demo: sandbox on \(demo.baseURL); a scripted call starts once the stream is live")
        } else {
            // The demo's settings are not the file's: nothing to follow.
            settingsWatch = SettingsWatch(path: configPath) { [weak self] new in self?.apply(new) }
        }
        if secret == nil {
            // No stream to keep (logout still ends the agent: it loses its bus name).
            health.credentialsMissing()
            Log.message("not set up: waiting for `relavoi-agent login` (watching \(configPath))")
        } else {
            startStream()
        }
        MainLoop.run()
        settingsWatch?.stop()
        panels?.stop()
        tray?.stop()
        control?.unregister()
        busName?.release()
        return 0
    }

    /// The panel item per `tray-item`, saying what `Health` says.
    func startTray() {
        guard let callDriver else { return }
        tray = TrayItemController.start(
            mode: settings.trayItem, openURL: settings.openURL, control: callDriver, phrases: trayPhrases)
        if let health { tray?.health = health.current }
        tray?.panelShowsCalls = panels?.isShowing ?? false
        // A new item, or none: whether its timer wants the banners' seconds may differ.
        BannerDriver.shared.secondsWantedChanged()
    }

    /// Connects, and follows sleep and resume, network changes and logout (docs/desktop-life.md).
    func startStream() {
        guard let stream, let callDriver else { return }
        DesktopLifecycleDriver.start(
            stream: stream, callDriver: callDriver, sessionBus: Self.sessionBus, stop: { [weak self] in self?.stop() })
        Task { @MainActor in await stream.connect() }
    }

    /// The demo ends when its call's banner is gone, before the sandbox quits:
    /// the stream closes from this side, so the last word is not a dropped
    /// connection.
    private func endDemoAfterItsCall() {
        guard demo != nil, let callDriver else { return }
        if !callDriver.listBanners().isEmpty {
            demoCallShown = true
        } else if demoCallShown, !stopping {
            Log.message("demo: the call is over")
            stop()
        }
    }

    /// Closes banners and the stream, then ends the loop; bounded so a hung
    /// notification server cannot hold up the exit.
    func stop() {
        guard !stopping else { return }
        stopping = true
        callDriver?.closeAll()
        health?.stop()
        settingsWatch?.stop()
        Task { @MainActor in
            await self.stream?.disconnect()
            BannerDriver.shared.shutdown(timeout: 1)
            // closeAll ended the calls: what they paused is playing again; never exit with it paused.
            await self.media?.stop(within: 3)
            self.demo?.stop()
            MainLoop.quit()
        }
    }
}
