import FoundationEssentials
import RelavoiBanners
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiStream

/// The running agent: settings → stream → banners, until SIGTERM/SIGINT
/// (or the end of the demo script). `main` (Agent+Main.swift) makes it.
@MainActor
public final class Agent {
    /// Exit codes: 0 fine (also "already running"), 2 usage (`AgentOptions`), 78
    /// settings (EX_CONFIG: the systemd unit does not restart on it).
    public static let exitConfig: Int32 = 78

    private var settings: AgentSettings
    /// The API secret; nil when not set up (`relavoi-agent login` was not run):
    /// the agent then runs without a stream, says so, and waits for the account.
    private var secret: String?
    private let demo: DemoSandbox?
    /// Where the settings came from (the top-bar answer is saved there, the account is watched there).
    private let configPath: String
    private var stream: StreamConnectionDriver?
    private var callDriver: CallDriver?
    private var health: ConnectionHealthDriver?
    private var credentialsWatch: CredentialsWatch?
    private var media: MediaPauseDriver?
    private var stopping = false
    /// The process's shared session-bus connection, held for its lifetime.
    private static var sessionBus: BusConnection?

    init(settings: AgentSettings, secret: String?, demo: DemoSandbox?, configPath: String) {
        self.settings = settings
        self.secret = secret
        self.demo = demo
        self.configPath = configPath
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

        // The banners' words, read once: the banners, the Calls property and the panel item share them.
        let phrases = BannerPhrases.localized()
        let trayPhrases = TrayPhrases.localized(banner: phrases)
        let health = ConnectionHealthDriver(phrases: trayPhrases.health, offlineAfter: settings.offlineNoticeAfter)
        self.health = health
        // The demo owns com.relavoi.Agent only when it is free (so the panels
        // show the demo call), and runs without it beside an installed agent.
        var control: ControlService?
        var busName: AgentBusName?
        switch AgentBusClaim.claim(
            callDriver: callDriver, phrases: phrases, lockScreen: settings.lockScreen, health: health.current,
            demo: demo != nil, onNameLost: { [weak self] in self?.stop() })
        {
        case .claimed(let service, let name): (control, busName) = (service, name)
        case .exit(let code): if demo == nil { return code }
        case .demoWithoutBus: break
        }
        let banners = BannerDriver.shared
        BannerDriver.identity.withLock { $0 = .relavoiAgent }
        banners.phrases = phrases
        banners.settings = settings.banners
        banners.prepare()
        // The demo leaves the person's settings alone: no question from it.
        if demo == nil {
            TopBarQuestion.start(
                settings: settings, configPath: configPath, bus: Self.sessionBus,
                environment: ProcessInfo.processInfo.environment)
        }

        callDriver.onDismissed = { sessionId in control?.emitBannerDismissed(sessionId: sessionId) }
        // The panel item (StatusNotifierItem) follows the same calls, on the banners' tick.
        let tray = TrayItemController.start(
            mode: settings.trayItem, openURL: settings.openURL, control: callDriver, phrases: trayPhrases)
        banners.addTickObserver { tray?.refresh() }
        media = MediaPauseDriver.start(settings: settings, calls: callDriver, bus: Self.sessionBus)
        // Why calls cannot show: the notice, the Health property and the panel item say the same.
        tray?.health = health.current
        health.onChange = { state in
            control?.healthChanged(state)
            tray?.health = state
        }
        callDriver.onCallsChanged = {
            control?.callsChanged()
            tray?.refresh()
        }
        listeners.set("agent") { event in callDriver.handle(event) }
        stream.addConnectionStateListener("agent") { state in
            Log.info("stream \(state.rawValue)")
            control?.connectedChanged()
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
            watchForCredentials()
        }
        if secret == nil {
            // No stream to keep (logout still ends the agent: it loses its bus name).
            health.credentialsMissing()
            Log.message("not set up: waiting for `relavoi-agent login` (watching \(configPath))")
        } else {
            startStream()
        }
        MainLoop.run()
        credentialsWatch?.stop()
        tray?.stop()
        control?.unregister()
        busName?.release()
        return 0
    }

    /// Connects, and follows sleep and resume, network changes and logout (docs/desktop-life.md).
    private func startStream() {
        guard let stream, let callDriver else { return }
        DesktopLifecycleDriver.start(
            stream: stream, callDriver: callDriver, sessionBus: Self.sessionBus, stop: { [weak self] in self?.stop() })
        Task { @MainActor in await stream.connect() }
    }

    /// agent.conf is watched for a new account (after `relavoi-agent login`),
    /// which is taken in place: no restart, the live banners stay.
    private func watchForCredentials() {
        let current = secret.map { CredentialsWatch.Account(settings, secret: $0) }
        credentialsWatch = CredentialsWatch(path: configPath, current: current) { [weak self] account, secret in
            self?.takeAccount(account, secret: secret)
        }
    }

    private func takeAccount(_ account: AgentSettings, secret newSecret: String) {
        guard !stopping, let stream, let callDriver, let health else { return }
        let config: RelavoiConfig
        do {
            config = try RelavoiConfig(agentSettings: account)
        } catch {
            Log.warning("new credentials not used: \(error)")
            return
        }
        Log.message("credentials changed: taking them in place")
        let wasSetUp = secret != nil
        secret = newSecret
        settings.apiKey = account.apiKey
        settings.tenantId = account.tenantId
        settings.baseURL = account.baseURL
        settings.webSocketURL = account.webSocketURL
        settings.userPhone = account.userPhone
        callDriver.takeAccount(account)
        stream.useAccount(
            apiKey: account.apiKey ?? "", apiSecret: newSecret, tenantId: account.tenantId ?? "", config: config)
        health.credentialsChanged()
        if !wasSetUp { startStream() }
    }

    /// Closes banners and the stream, then ends the loop; bounded so a hung
    /// notification server cannot hold up the exit.
    func stop() {
        guard !stopping else { return }
        stopping = true
        callDriver?.closeAll()
        health?.stop()
        credentialsWatch?.stop()
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
