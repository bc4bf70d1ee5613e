import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// `relavoi-agent [OPTION…]`, parsed with GLib's GOptionContext (`CommandLineParser`).
public struct AgentOptions: Equatable, Sendable {
    public var configPath: String?
    public var demo = false
    public var verbose = false
    public var showVersion = false

    public static let version = "0.1.0"
    static var summary: String {
        L(
            "Shows live banners for Relavoi calls on the desktop's notification server.\n\nCommands:\n  relavoi-agent login        check the API key and secret with the server, then save\n                             them (keyring, agent.conf) with the tenant id and your phone\n  relavoi-agent ctl ...      drive banners over D-Bus (relavoi-agent ctl --help)\n\nSettings: $XDG_CONFIG_HOME/relavoi/agent.conf, then RELAVOI_* environment\nvariables (see man relavoi-agent). The API secret is never taken from the command line."
        ) + "\n\n" + mediaSummary + "\n\n" + Setting.helpText
    }
    /// `pause-media`, the one setting that acts beyond the agent's own banners.
    static var mediaSummary: String {
        L(
            "While a call you are shown rings, media players (MPRIS) that play are paused, and played\nagain when it ends: pause-media = ringing (default), answered or off in agent.conf."
        )
    }

    public enum ParseResult: Equatable {
        case run(AgentOptions)
        /// Print this (an error) on stderr and exit with the code.
        case exit(code: Int32, message: String)
        /// Print this (`--help`) on stdout and exit 0.
        case help(String)
    }

    /// Parses `arguments` (argv without the program name is not expected:
    /// pass all of argv).
    public static func parse(_ arguments: [String]) -> ParseResult {
        let parser = CommandLineParser(
            options: [
                .init(
                    "config", short: "c",
                    // TRANSLATORS: the argument of --config, as --help shows it.
                    value: L("FILE"), filename: true,
                    description: L("Read settings from FILE instead of $XDG_CONFIG_HOME/relavoi/agent.conf")),
                .init(
                    "demo",
                    description: L("Run against a built-in Relavoi sandbox with a scripted call (no account needed)")),
                .init("verbose", short: "v", description: L("Log debug details to stderr")),
                .init("version", description: L("Print the version and exit")),
            ], summary: summary)
        let parsed: CommandLineParser.Parsed
        do {
            switch try parser.parse(arguments) {
            case .help(let text): return .help(text)
            case .parsed(let result): parsed = result
            }
        } catch {
            return .exit(
                code: 2,
                message: "relavoi-agent: "
                    + BannerPhrases.fill(
                        L("%s (try --help)"), with: error.message))
        }
        if let extra = parsed.remaining.first {
            let quoted = String(extra.prefix(64))
            return .exit(
                code: 2,
                message: "relavoi-agent: "
                    + BannerPhrases.fill(L("unexpected argument \"%s\" (try --help)"), with: quoted))
        }
        var options = AgentOptions()
        options.demo = parsed.has("demo")
        options.verbose = parsed.has("verbose")
        options.showVersion = parsed.has("version")
        options.configPath = parsed.value("config")
        return .run(options)
    }
}
