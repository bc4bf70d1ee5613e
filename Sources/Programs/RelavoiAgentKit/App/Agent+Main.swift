import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings
import RelavoiStream

extension Agent {
    /// `relavoi-agent` with all of argv: a subcommand, or the agent itself,
    /// which runs the GLib main loop until the end.
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
            StandardStreams.error(message + "\n")
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
        MainLoop.installDispatchBridge()
        // One thread does the agent's work: no libdispatch workers, no 1 Hz wake-up when idle.
        MainLoop.runGlobalExecutorJobsOnMainThread()
        keepSessionBus()

        var settings: AgentSettings
        var demo: DemoSandbox?
        let secret: String?
        do {
            settings = try AgentSettingsLoader.load(path: options.configPath)
            if options.demo {
                let sandbox = try DemoSandbox()
                settings.useDemoAccount(sandbox)
                secret = sandbox.apiSecret
                demo = sandbox
            } else {
                secret = try AccountSecret.find(for: settings)
            }
            // Checked here so that a bad URL is exit 78, not a stream that never connects.
            _ = try RelavoiConfig(agentSettings: settings)
        } catch let error as DemoSandbox.StartError {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return 1
        } catch {
            StandardStreams.error("relavoi-agent: \(error)\n")
            return exitConfig
        }
        let agent = Agent(
            settings: settings, secret: secret, demo: demo,
            configPath: options.configPath ?? AgentSettingsFile.defaultPath)
        return agent.run()
    }
}
