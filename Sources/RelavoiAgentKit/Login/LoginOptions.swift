/// `relavoi-agent login [--api-key KEY] [--config FILE] [--force]`.
struct LoginOptions: Equatable {
    var apiKey: String?
    var configPath: String?
    var force = false

    enum Parsed: Equatable {
        case run(LoginOptions)
        case help
        case usageError(String)
    }

    static let usage = """
        Usage: relavoi-agent login [--api-key KEY] [--config FILE] [--force]

        Stores the Relavoi API secret in the desktop keyring (Secret Service) and
        the API key as api-key in the [agent] group of agent.conf.

        On a terminal it asks for the key and then the secret (which is not
        shown). When standard input is not a terminal it reads them as lines:
        the key, then the secret (only the secret with --api-key).

        Options:
          --api-key KEY   the API key (not a secret); otherwise asked for
          --config FILE   write the key to FILE instead of
                          $XDG_CONFIG_HOME/relavoi/agent.conf
          --force         accept a key or secret that does not have the usual
                          shape (rk_live_/rk_test_ + 48 hex; rs_ + 64 hex)
          -h, --help      show this help

        The secret is never taken from the command line. Without a keyring, keep
        it in a file only you can read (chmod 600) named by
        RELAVOI_API_SECRET_FILE or api-secret-file in agent.conf.

        Exit status: 0 stored, 1 not stored (no keyring, cannot write), 2 usage
        or unusable input.
        """

    /// Parses the words after `login`.
    static func parse(_ args: [String]) -> Parsed {
        var options = LoginOptions()
        var index = 0
        func value(_ name: String) -> String? {
            index += 1
            return index < args.count ? args[index] : nil
        }
        while index < args.count {
            let arg = args[index]
            switch arg {
            case "-h", "--help":
                return .help
            case "--force":
                options.force = true
            case "--api-key":
                guard let key = value(arg) else { return .usageError("--api-key needs a value") }
                options.apiKey = key
            case "--config":
                guard let path = value(arg), !path.isEmpty else { return .usageError("--config needs a file") }
                options.configPath = path
            default:
                if arg.hasPrefix("--api-key=") {
                    options.apiKey = String(arg.dropFirst("--api-key=".count))
                } else if arg.hasPrefix("--config="), arg.count > "--config=".count {
                    options.configPath = String(arg.dropFirst("--config=".count))
                } else if arg.lowercased().contains("secret") {
                    // Do not echo it: it may be the secret itself.
                    return .usageError("the API secret is never taken from the command line; run login without it")
                } else if arg.hasPrefix("-") {
                    // The name only: a value after "=" may be a pasted secret.
                    let name = arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg
                    return .usageError("unknown option \(TerminalText.safe(name, limit: 40))")
                } else {
                    // Not echoed: it may be a pasted secret.
                    return .usageError(
                        "login takes no arguments but options (the API secret is never taken from the command line)")
                }
            }
            index += 1
        }
        return .run(options)
    }
}
