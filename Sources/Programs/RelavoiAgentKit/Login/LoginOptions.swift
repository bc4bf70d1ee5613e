import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// `relavoi-agent login [--api-key KEY] [--base-url URL] [--user-phone E164]
/// [--config FILE] [--offline] [--force]`.
package struct LoginOptions: Equatable {
    package var apiKey: String?
    package var baseURL: String?
    package var userPhone: String?
    package var configPath: String?
    package var offline = false
    package var force = false

    package init() {}

    enum Parsed: Equatable {
        case run(LoginOptions)
        case help
        case usageError(String)
    }

    static var usage: String {
        L(
            "Usage: relavoi-agent login [--api-key KEY] [--base-url URL] [--user-phone E164]\n                           [--config FILE] [--offline] [--force]\n\nSets up the agent for this user in one go:\n  1. asks for the API key and the API secret (which is not shown);\n  2. checks the pair with the token endpoint (POST BASE-URL/auth/token)\n     before saving anything: a refused pair or an unreachable server\n     is said at once and nothing is saved;\n  3. takes the tenant id from the access token (asks for it only when\n     the token has none; asks before replacing a different one);\n  4. asks for your phone number for call verification (optional,\n     E.164 such as +2348000000001; Enter skips);\n  5. stores the secret in the desktop keyring (Secret Service) and\n     api-key, tenant-id, user-phone (and base-url when given) in the\n     [agent] group of agent.conf, and says where.\nThen start the agent: systemctl --user start relavoi-agent, or log in again.\n\nOn a terminal it prompts; when standard input is not a terminal it reads\nthe answers as lines in the same order (no key line with --api-key, no\nphone line with --user-phone).\n\nOptions:\n  --api-key KEY      the API key (not a secret); otherwise asked for\n  --base-url URL     the REST base URL to check against and save\n                     (default: base-url in agent.conf, RELAVOI_BASE_URL,\n                     or https://api.relavoi.com/v1)\n  --user-phone E164  your phone number for verification; otherwise asked for\n  --config FILE      write FILE instead of $XDG_CONFIG_HOME/relavoi/agent.conf\n  --offline          do not contact the server: save without checking the\n                     pair (the tenant id is then asked for)\n  --force            accept a key or secret that does not have the usual\n                     shape (rk_live_/rk_test_ + 48 hex; rs_ + 64 hex)\n  -h, --help         show this help\n\nThe secret is never taken from the command line. Without a keyring, keep\nit in a file only you can read (chmod 600) named by\nRELAVOI_API_SECRET_FILE or api-secret-file in agent.conf.\n\nExit status: 0 saved; 1 not saved or only partly (no keyring, cannot\nwrite, server error, rate limited); 2 usage or unusable input; 3 the\nserver refused the key and secret; 4 the server could not be reached."
        )
    }

    /// Parses the words after `login`.
    static func parse(_ args: [String]) -> Parsed {
        let parser = CommandLineParser(
            options: [
                .init(Setting.apiKey.key, value: "KEY"), .init(Setting.baseURL.key, value: "URL"),
                .init(Setting.userPhone.key, value: "E164"),
                .init("config", value: "FILE", filename: true), .init("offline"), .init("force"),
            ],
            keepsUnknownOptions: true, helpOptions: ["-h", "--help"])
        let parsed: CommandLineParser.Parsed
        do {
            switch try parser.parse(["login"] + args) {
            case .help: return .help
            case .parsed(let result): parsed = result
            }
        } catch {
            guard error.kind == .missingValue, let option = error.option else { return .usageError(error.message) }
            return .usageError("\(option) needs a value")
        }
        var options = LoginOptions()
        for given in parsed.given {
            let valued: [String: WritableKeyPath<LoginOptions, String?>] = [
                Setting.apiKey.key: \.apiKey, Setting.baseURL.key: \.baseURL, Setting.userPhone.key: \.userPhone,
                "config": \.configPath,
            ]
            if let path = valued[given.name] {
                guard let value = given.value, !value.isEmpty else {
                    return .usageError("--\(given.name) needs a value")
                }
                options[keyPath: path] = value
            }
            if given.name == "offline" { options.offline = true }
            if given.name == "force" { options.force = true }
        }
        if let arg = parsed.remaining.first {
            if arg.lowercased().contains("secret") {
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
        return .run(options)
    }
}
