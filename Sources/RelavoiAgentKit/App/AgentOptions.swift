import CGLib
import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiI18n

/// `relavoi-agent [OPTION…]`, parsed with GLib's GOptionContext.
public struct AgentOptions: Equatable, Sendable {
    public var configPath: String?
    public var demo = false
    public var verbose = false
    public var showVersion = false

    public static let version = "0.1.0"
    static var summary: String {
        L(
            "Shows live banners for Relavoi calls on the desktop's notification server.\n\nCommands:\n  relavoi-agent login        check the API key and secret with the server, then save\n                             them (keyring, agent.conf) with the tenant id and your phone\n  relavoi-agent ctl ...      drive banners over D-Bus (relavoi-agent ctl --help)\n\nSettings: $XDG_CONFIG_HOME/relavoi/agent.conf, then RELAVOI_* environment\nvariables (see README.md). The API secret is never taken from the command line."
        )
    }

    public enum ParseResult: Equatable {
        case run(AgentOptions)
        /// Print this (help, version, or an error) and exit with the code.
        case exit(code: Int32, message: String)
    }

    /// Parses `arguments` (argv without the program name is not expected:
    /// pass all of argv).
    public static func parse(_ arguments: [String]) -> ParseResult {
        var demo: gboolean = 0
        var verbose: gboolean = 0
        var version: gboolean = 0
        var config: UnsafeMutablePointer<gchar>? = nil
        let names: [UnsafeMutablePointer<gchar>] = (["config", "demo", "verbose", "version"] as [String]).map {
            g_strdup($0)!
        }
        let descriptions: [UnsafeMutablePointer<gchar>] =
            ([
                L("Read settings from FILE instead of $XDG_CONFIG_HOME/relavoi/agent.conf"),
                L("Run against a built-in Relavoi sandbox with a scripted call (no account needed)"),
                L("Log debug details to stderr"), L("Print the version and exit"),
            ] as [String]).map { g_strdup($0)! }
        // TRANSLATORS: the argument of --config, as --help shows it.
        let argDescription = g_strdup(L("FILE"))!
        defer {
            (names + descriptions + [argDescription]).forEach { g_free($0) }
            g_free(config)
        }
        let result: ParseResult = withUnsafeMutablePointer(to: &demo) { demoPointer in
            withUnsafeMutablePointer(to: &verbose) { verbosePointer in
                withUnsafeMutablePointer(to: &version) { versionPointer in
                    withUnsafeMutablePointer(to: &config) { configPointer in
                        var entries = [
                            GOptionEntry(
                                long_name: names[0], short_name: CChar(UInt8(ascii: "c")), flags: 0,
                                arg: G_OPTION_ARG_FILENAME,
                                arg_data: UnsafeMutableRawPointer(configPointer), description: descriptions[0],
                                arg_description: argDescription),
                            GOptionEntry(
                                long_name: names[1], short_name: 0, flags: 0, arg: G_OPTION_ARG_NONE,
                                arg_data: UnsafeMutableRawPointer(demoPointer), description: descriptions[1],
                                arg_description: nil),
                            GOptionEntry(
                                long_name: names[2], short_name: CChar(UInt8(ascii: "v")), flags: 0,
                                arg: G_OPTION_ARG_NONE,
                                arg_data: UnsafeMutableRawPointer(verbosePointer), description: descriptions[2],
                                arg_description: nil),
                            GOptionEntry(
                                long_name: names[3], short_name: 0, flags: 0, arg: G_OPTION_ARG_NONE,
                                arg_data: UnsafeMutableRawPointer(versionPointer), description: descriptions[3],
                                arg_description: nil),
                            GOptionEntry(),
                        ]
                        return parse(arguments, entries: &entries)
                    }
                }
            }
        }
        guard case .run = result else { return result }
        var options = AgentOptions()
        options.demo = demo != 0
        options.verbose = verbose != 0
        options.showVersion = version != 0
        options.configPath = config.map { String(cString: $0) }
        return .run(options)
    }

    private static func parse(_ arguments: [String], entries: inout [GOptionEntry]) -> ParseResult {
        let context = g_option_context_new(nil)
        defer { g_option_context_free(context) }
        g_option_context_set_summary(context, summary)
        g_option_context_add_main_entries(context, &entries, nil)
        // A GLib-owned string vector: parse_strv removes (and frees) the
        // options it used; what remains is freed with the vector.
        var copies: [UnsafeMutablePointer<gchar>?] = arguments.map { g_strdup($0) } + [nil]
        var strv = copies.withUnsafeMutableBufferPointer { g_strdupv($0.baseAddress) }
        copies.forEach { g_free($0) }
        defer { g_strfreev(strv) }
        var error: UnsafeMutablePointer<GError>?
        let parsed = g_option_context_parse_strv(context, &strv, &error) != 0
        var leftover: [String] = []
        if let strv {
            var index = 1
            while let item = strv[index] {
                leftover.append(String(cString: item))
                index += 1
            }
        }
        if !parsed {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? L("bad arguments")
            g_error_free(error)
            return .exit(code: 2, message: "relavoi-agent: " + BannerPhrases.fill(L("%s (try --help)"), with: message))
        }
        if let extra = leftover.first {
            let quoted = String(extra.prefix(64))
            return .exit(
                code: 2,
                message: "relavoi-agent: "
                    + BannerPhrases.fill(L("unexpected argument \"%s\" (try --help)"), with: quoted))
        }
        return .run(AgentOptions())
    }
}
