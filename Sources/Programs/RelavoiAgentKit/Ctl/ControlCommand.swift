import RelavoiI18n

/// `relavoi-agent ctl …` argv, parsed. Pure: shapes only; the agent
/// validates the values (and says what is wrong with them).
public enum ControlCommand: Equatable, Sendable {
    public enum EndPolicy: Equatable, Sendable {
        case immediate
        case `default`
        /// Close this many seconds from now.
        case afterSeconds(Int64)
    }

    case start(sessionId: String, proxyNumber: String, label: String, verified: Bool)
    case update(sessionId: String, elapsedSeconds: Int32, label: String, verified: Bool)
    case end(sessionId: String, policy: EndPolicy)
    case dismiss(sessionId: String)
    case list
    case status
    case diagnostics

    public enum Parsed: Equatable, Sendable {
        case run(ControlCommand)
        case help
        case usageError(String)
    }

    public static var usage: String {
        L(
            "Usage: relavoi-agent ctl COMMAND [ARGUMENT…]\n\nDrives the running agent's call banners over D-Bus (com.relavoi.Agent1 on\nthe session bus); D-Bus starts the agent if it is installed as a service.\n\nCommands:\n  start SESSION PROXY LABEL [--verified]\n      Show a banner for call SESSION, its timer running from now.\n  update SESSION ELAPSED LABEL [--verified]\n      Set the banner's elapsed time (seconds), badge and label.\n  end SESSION [immediate|default|after:SECONDS]\n      End the banner: close it now (immediate, the default), show the\n      ended state for a while (default), or close it SECONDS from now.\n  dismiss SESSION\n      Close the banner as from the tray: the call is no longer shown.\n  list\n      One tab-separated line per call, oldest first (the Calls\n      property): session, phase (ringing|live|ended|missed), seconds\n      (elapsed while live, the duration once ended), badge\n      (checking|verified|unverified|unavailable), proxy number, label.\n  status\n      Whether the event stream is connected, how many banners show,\n      and the connection's health (connected, reconnecting, offline,\n      refused or not-set-up) and since when.\n  diagnostics\n      The agent's own figures, one NAME<TAB>VALUE line each: memory\n      (rss-bytes, heap-in-use-bytes), threads, open fds, GLib sources,\n      banners, followed calls, known sessions.\n\nOptions:\n  --verified   the call is verified (without it: unverified)\n  --           what follows is not an option (a label starting with '-')\n  -h, --help   show this help\n\nSESSION is 1-128 characters of A-Z a-z 0-9 . _ : -; PROXY is digits,\nspaces and + - ( ); LABEL is at most 1024 bytes.\n\nExit status: 0 done, 1 the agent refused or could not be reached, 2 usage."
        )
    }

    /// Parses the words after `ctl`.
    public static func parse(_ args: [String]) -> Parsed {
        var words: [String] = []
        var verified = false
        var optionsEnded = false
        for arg in args {
            if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
                words.append(arg)
            } else if arg == "--" {
                optionsEnded = true
            } else if arg == "-h" || arg == "--help" {
                return .help
            } else if arg == "--verified" {
                verified = true
            } else {
                return .usageError(L("unknown option %s", TerminalText.safe(arg, limit: 40)))
            }
        }
        guard let name = words.first else { return .usageError(L("no command given")) }
        let operands = Array(words.dropFirst())
        if verified, name != "start", name != "update" {
            return .usageError(L("--verified goes with start and update only"))
        }
        switch name {
        case "help":
            return .help
        case "start":
            guard operands.count == 3 else { return arity(name, "SESSION PROXY LABEL") }
            return .run(
                .start(sessionId: operands[0], proxyNumber: operands[1], label: operands[2], verified: verified))
        case "update":
            guard operands.count == 3 else { return arity(name, "SESSION ELAPSED LABEL") }
            guard let elapsed = Int32(operands[1]) else {
                return .usageError(L("ELAPSED must be a whole number of seconds"))
            }
            return .run(
                .update(sessionId: operands[0], elapsedSeconds: elapsed, label: operands[2], verified: verified))
        case "end":
            guard operands.count == 1 || operands.count == 2 else {
                return arity(name, "SESSION [immediate|default|after:SECONDS]")
            }
            guard let policy = endPolicy(operands.count == 2 ? operands[1] : "immediate") else {
                return .usageError(L("the policy must be immediate, default or after:SECONDS"))
            }
            return .run(.end(sessionId: operands[0], policy: policy))
        case "dismiss":
            guard operands.count == 1 else { return arity(name, "SESSION") }
            return .run(.dismiss(sessionId: operands[0]))
        case "list", "status", "diagnostics":
            guard operands.isEmpty else { return .usageError(L("%s takes no arguments", name)) }
            switch name {
            case "list": return .run(.list)
            case "status": return .run(.status)
            default: return .run(.diagnostics)
            }
        default:
            return .usageError(L("unknown command %s", TerminalText.safe(name, limit: 40)))
        }
    }

    private static func arity(_ name: String, _ operands: String) -> Parsed {
        .usageError(L("usage: %s", "relavoi-agent ctl \(name) \(operands)"))
    }

    private static func endPolicy(_ text: String) -> EndPolicy? {
        switch text {
        case "immediate": return .immediate
        case "default": return .default
        default:
            guard text.hasPrefix("after:"), let seconds = Int64(text.dropFirst("after:".count)), seconds >= 0 else {
                return nil
            }
            return .afterSeconds(seconds)
        }
    }
}
