import FoundationEssentials
import Glibc
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSDK

/// The running agent: settings → stream → banners, until SIGTERM/SIGINT
/// (or the end of the demo script).
@MainActor
public final class Agent {
    /// Exit codes: 0 fine (also "already running"), 2 usage (`AgentOptions`), 78
    /// settings (EX_CONFIG: the systemd unit does not restart on it).
    public static let exitConfig: Int32 = 78

    private let settings: AgentSettings
    private let demo: DemoSandbox?
    /// Where the settings came from (the top-bar answer is saved there).
    private let configPath: String
    private var callDriver: CallDriver?
    private var stopping = false
    /// No account at start (`relavoi-agent login` was not run): the agent runs
    /// without a stream, says so, and watches agent.conf for the credentials.
    private let notSetUp: Bool
    private var health: ConnectionHealthDriver?
    private var configWatch: FileChangeMonitor?
    private lazy var configRecheck = DeadlineTimer(slack: 0) { [weak self] in self?.recheckCredentials() }
    /// Set when the credentials arrived: `main` starts the agent again in place.
    private var restartRequested = false
    /// The process's shared session-bus connection, held for its lifetime.
    private static var sessionBus: BusConnection?

    init(settings: AgentSettings, demo: DemoSandbox?, configPath: String, notSetUp: Bool) {
        self.settings = settings
        self.demo = demo
        self.configPath = configPath
        self.notSetUp = notSetUp
    }

    /// For the agent's process tests only: seconds down before offline is told
    /// (`RELAVOI_HEALTH_OFFLINE_AFTER`), instead of `ConnectionHealthMachine.offlineAfter`.
    public static let offlineAfterVariable = "RELAVOI_HEALTH_OFFLINE_AFTER"

    /// `relavoi-agent` with all of argv. Runs the GLib main loop until the end.
    public static func main(_ arguments: [String]) -> Int32 {
        // The user's locale and the catalogs, before any text is looked up.
        Localization.setUp()
        // Subcommands first: they have options of their own.
        switch arguments.dropFirst().first {
        case "login": return LoginCommand.run(Array(arguments.dropFirst(2)))
        case "ctl": return ControlClient.run(Array(arguments.dropFirst(2)))
        default: break
        }
        let options: AgentOptions
        switch AgentOptions.parse(arguments) {
        case .exit(let code, let message):
            StandardStreams.error((message + "\n"))
            return code
        case .help(let text):
            StandardStreams.output(text)
            return 0
        case .run(let parsed):
            options = parsed
        }
        if options.showVersion {
            print("relavoi-agent \(AgentOptions.version)")
            return 0
        }
        if options.verbose { Log.enableVerbose() }
        // Before anything else is started: this may run the program anew.
        SliceAllocator.startAgainWithPlainMallocIfNeeded()
        MainLoop.installDispatchBridge()
        // One thread does the agent's work: no libdispatch workers, no 1 Hz wake-up when idle.
        MainLoop.runGlobalExecutorJobsOnMainThread()
        // The shared session connection is made here, on the main context, and
        // kept: GDBus emits `closed` (logout) in the context a connection was
        // made in, and libsecret's sync lookup below would otherwise make it in
        // a private context that is never run again (logout went unnoticed).
        sessionBus = try? BusConnection.session()

        var settings: AgentSettings
        do {
            settings = try AgentSettingsLoader.load(path: options.configPath)
        } catch {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return exitConfig
        }

        var demo: DemoSandbox?
        let secret: String
        var notSetUp = false
        if options.demo {
            let server: DemoSandbox
            do {
                server = try DemoSandbox()
            } catch {
                StandardStreams.error("relavoi-agent: \(error)\n")
                return 1
            }
            settings.baseURL = server.baseURL
            settings.webSocketURL = nil
            settings.apiKey = server.apiKey
            settings.tenantId = server.tenantId
            settings.userPhone = nil
            settings.proxyNumbers = []
            settings.dismissPolicy = .after(seconds: 5)
            secret = server.apiSecret
            demo = server
        } else {
            do {
                if let found = try accountSecret(settings) {
                    secret = found
                } else {
                    secret = ""
                    notSetUp = true
                }
            } catch {
                StandardStreams.error("relavoi-agent: \(error)\n")
                return exitConfig
            }
        }

        let config: RelavoiConfig
        do {
            config = try relavoiConfig(settings)
        } catch {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return exitConfig
        }
        let agent = Agent(
            settings: settings, demo: demo, configPath: options.configPath ?? AgentConfigFile.defaultPath,
            notSetUp: notSetUp)
        let status = agent.run(secret: secret, config: config)
        guard agent.restartRequested else { return status }
        return restart(arguments)
    }

    /// The account's API secret; nil when there is no account at all (no key,
    /// tenant or secret anywhere: not set up, which the agent tells and waits
    /// out). A secret file that is named but unsafe or unreadable throws: a
    /// setting to fix, exit 78 as for any malformed one.
    static func accountSecret(_ settings: AgentSettings) throws -> String? {
        do {
            try settings.requireAccount()
        } catch {
            Log.message("not set up: \(error)")
            return nil
        }
        let resolved: SecretSource.Resolved
        do {
            resolved = try SecretSource(apiKey: settings.apiKey, settingsSecretFile: settings.apiSecretFile).resolve()
        } catch {
            guard error.isMissing else { throw error }
            Log.message("not set up: \(error)")
            return nil
        }
        Log.info("API secret from \(resolved.origin)")
        return resolved.secret.value
    }

    /// Runs this program again in this process, with the same arguments: the
    /// simplest way to take up everything `login` wrote (account, server,
    /// phone). Exit 1 if that fails, which systemd's unit restarts.
    private static func restart(_ arguments: [String]) -> Int32 {
        Log.message("credentials found: starting again to use them")
        let reason = RunningExecutable.startAgain(arguments)
        StandardStreams.error("relavoi-agent: cannot start again: \(reason)\n")
        return 1
    }

    /// The SDK's configuration; refuses plain HTTP/WS to anything but loopback.
    nonisolated static func relavoiConfig(_ settings: AgentSettings) throws -> RelavoiConfig {
        guard let baseURL = URL(string: settings.baseURL) else {
            throw SettingsError(key: "base-url", message: "not a URL")
        }
        var config = RelavoiConfig(baseURL: baseURL, webSocketURL: settings.webSocketURL.flatMap(URL.init(string:)))
        // The agent's banners are Relavoi's own (an app using the SDK gets its own name).
        config.appIdentity = .relavoiAgent
        do {
            try config.validate()
        } catch {
            throw SettingsError(key: "base-url", message: "\(error)")
        }
        return config
    }

    private func run(secret: String, config: RelavoiConfig) -> Int32 {
        Relavoi.initialize(
            apiKey: settings.apiKey ?? "", apiSecret: secret, tenantId: settings.tenantId ?? "", config: config)
        let relavoi = Relavoi.shared
        let callDriver = CallDriver(settings: settings, lookup: RelavoiSessionLookup(relavoi: relavoi))
        self.callDriver = callDriver

        // One agent per session: it owns com.relavoi.Agent. The demo owns it
        // only when it is free (so the panels show the demo call), and runs
        // without it beside an installed agent.
        var control: ControlService?
        var busName: AgentBusName?
        // The banners' words, read once: the banners, the Calls property and the panel item share them.
        let phrases = BannerPhrases.localized()
        let trayPhrases = TrayPhrases.localized(banner: phrases)
        let health = ConnectionHealthDriver(
            phrases: trayPhrases.health, offlineAfter: Self.offlineAfter(ProcessInfo.processInfo.environment))
        self.health = health
        switch claimSessionBus(callDriver: callDriver, phrases: phrases, health: health.current, demo: demo != nil) {
        case .success(let claimed): (control, busName) = claimed
        case .failure(let exit): if demo == nil { return exit.code }
        }
        BannerDriver.shared.phrases = phrases
        BannerDriver.shared.settings = settings.banners
        BannerDriver.shared.prepare()
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
        BannerDriver.shared.addTickObserver { tray?.refresh() }
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
        relavoi.events.addListener("agent") { event in callDriver.handle(event) }
        relavoi.events.addConnectionStateListener("agent") { state in
            Log.info("stream \(state.rawValue)")
            control?.connectedChanged()
            health.streamStateChanged(state)
        }
        relavoi.events.addTokenRefusedListener("agent") { health.tokenRefused() }
        UnixSignals.onTerminate { [weak self] signal in
            MainActor.assumeIsolated {
                Log.message("signal \(signal): closing banners and the stream")
                self?.stop()
            }
        }
        if let demo {
            demo.onQuit { [weak self] in self?.stop() }
            Log.message("demo: sandbox on \(demo.baseURL); a scripted call starts once the stream is live")
        }
        if notSetUp {
            // No stream to keep (logout still ends the agent: it loses its bus name).
            health.credentialsMissing()
            watchForCredentials()
        } else {
            // Sleep and resume, network changes and logout (docs/session-life.md).
            SessionLifecycleDriver.start(
                events: relavoi.events, callDriver: callDriver, sessionBus: Self.sessionBus,
                stop: { [weak self] in self?.stop() })
            Task { @MainActor in await relavoi.events.connect() }
        }
        MainLoop.run()
        configWatch = nil
        tray?.stop()
        control?.unregister()
        busName?.release()
        return 0
    }

    static func offlineAfter(_ environment: [String: String]) -> TimeInterval {
        guard let text = environment[offlineAfterVariable], let seconds = Double(text), seconds > 0 else {
            return ConnectionHealthMachine.offlineAfter
        }
        Log.message("offline is told after \(seconds) s (\(offlineAfterVariable), for tests)")
        return seconds
    }

    /// Not set up: `relavoi-agent login` writes agent.conf (and the secret
    /// before it); each change of the file is read again once quiet.
    private func watchForCredentials() {
        configWatch = FileChangeMonitor(path: configPath) { [weak self] in
            // A replace comes as several events: read once they are over.
            self?.configRecheck.schedule(at: Date().addingTimeInterval(0.2), now: Date())
        }
        if configWatch == nil { Log.warning("cannot watch \(configPath): restart the agent after login") }
        Log.message("not set up: waiting for `relavoi-agent login` (watching \(configPath))")
    }

    private func recheckCredentials() {
        guard !stopping else { return }
        let found: String?
        do {
            found = try Self.accountSecret(AgentSettingsLoader.load(path: configPath))
        } catch {
            // Half-written or wrong: the person is still at it; the next change is read again.
            Log.warning("\(configPath) changed but cannot be used yet: \(error)")
            return
        }
        guard found != nil else { return }
        restartRequested = true
        stop()
    }

    private struct EarlyExit: Error { let code: Int32 }

    /// Registers the control interface, then owns the name (so D-Bus
    /// activation callers find the object at once); a second agent exits 0.
    private func claimSessionBus(
        callDriver: CallDriver, phrases: BannerPhrases, health: ConnectionHealth, demo: Bool
    ) -> Result<
        (ControlService, AgentBusName), EarlyExit
    > {
        let connection: BusConnection
        do {
            connection = try BusConnection.session()
        } catch {
            if demo { return .failure(EarlyExit(code: 0)) }
            StandardStreams.error("relavoi-agent: no D-Bus session bus: \(error)\n")
            return .failure(EarlyExit(code: 1))
        }
        let service = ControlService(
            connection: connection, control: callDriver, phrases: phrases, lockScreen: settings.lockScreen,
            health: health)
        do {
            try service.register()
        } catch {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return .failure(EarlyExit(code: 1))
        }
        let outcome = AgentBusName.acquire(on: connection) { [weak self] reason in
            Log.message("lost the bus name \(AgentBus.name) (\(reason)); stopping")
            self?.stop()
        }
        switch outcome {
        case .acquired(let name):
            return .success((service, name))
        case .alreadyRunning:
            service.unregister()
            if demo {
                Log.message("demo: an agent already owns \(AgentBus.name); the demo runs without the D-Bus interface")
            } else {
                print(L("relavoi-agent is already running in this session"))
            }
            return .failure(EarlyExit(code: 0))
        case .noBus(let message):
            service.unregister()
            StandardStreams.error("relavoi-agent: \(message)\n")
            return .failure(EarlyExit(code: 1))
        }
    }

    /// Closes banners and the stream, then ends the loop; bounded so a hung
    /// notification server cannot hold up the exit.
    func stop() {
        guard !stopping else { return }
        stopping = true
        callDriver?.closeAll()
        health?.stop()
        Task { @MainActor in
            await Relavoi.shared.events.disconnect()
            BannerDriver.shared.shutdown(timeout: 1)
            self.demo?.stop()
            MainLoop.quit()
        }
    }
}
