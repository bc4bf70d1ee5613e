import Foundation

/// `relavoi-agent login`: asks for the API key and secret, stores the secret
/// in the keyring (label "Relavoi API secret (<first 12 characters of the
/// key>…)") and the key in agent.conf. See `LoginOptions.usage`.
public enum LoginCommand {
    public static let exitOK: Int32 = 0
    public static let exitNotStored: Int32 = 1
    public static let exitUsage: Int32 = 2

    /// Runs `login` with the words after `login`; returns the exit status.
    public static func run(_ args: [String]) -> Int32 { run(args, io: .terminal) }

    /// What `login` reads and writes; tests replace the terminal and the keyring.
    struct IO {
        var readLine: (_ prompt: String, _ hidden: Bool) -> String?
        var out: (String) -> Void
        var err: (String) -> Void
        var storeSecret: (_ secret: APISecret, _ apiKey: String, _ label: String) throws(Keyring.StoreError) -> Void
        var defaultConfigPath: () -> String

        static var terminal: IO {
            IO(
                readLine: TerminalPrompt.readLine(prompt:hidden:),
                out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
                err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
                storeSecret: { (secret, apiKey, label) throws(Keyring.StoreError) in
                    try Keyring.store(secret: secret, apiKey: apiKey, label: label)
                },
                defaultConfigPath: { AgentConfigWriter.defaultPath })
        }
    }

    static func run(_ args: [String], io: IO) -> Int32 {
        let options: LoginOptions
        switch LoginOptions.parse(args) {
        case .help:
            io.out(LoginOptions.usage)
            return exitOK
        case .usageError(let message):
            io.err("relavoi-agent login: \(message)")
            io.err("Try 'relavoi-agent login --help'.")
            return exitUsage
        case .run(let parsed):
            options = parsed
        }
        func fail(_ message: String) -> Int32 {
            io.err("relavoi-agent login: \(message)")
            return exitUsage
        }

        let rawKey = options.apiKey ?? io.readLine("Relavoi API key: ", false)
        guard let apiKey = rawKey?.trimmingCharacters(in: .whitespacesAndNewlines), !apiKey.isEmpty else {
            return fail("no API key given")
        }
        if let problem = verdictProblem(CredentialShape.checkKey(apiKey), force: options.force, io: io) {
            return fail(problem)
        }
        let rawSecret = io.readLine("Relavoi API secret (not shown): ", true)
        guard let secretText = rawSecret?.trimmingCharacters(in: .whitespacesAndNewlines), !secretText.isEmpty else {
            return fail("no API secret given")
        }
        if let problem = verdictProblem(CredentialShape.checkSecret(secretText), force: options.force, io: io) {
            return fail(problem)
        }
        let secret = APISecret(secretText)

        let configPath = options.configPath ?? io.defaultConfigPath()
        let label = "Relavoi API secret (\(apiKey.prefix(12))…)"
        var stored = true
        do {
            try io.storeSecret(secret, apiKey, label)
        } catch {
            stored = false
            let file = (configPath as NSString).deletingLastPathComponent + "/api-secret"
            io.err(
                """
                relavoi-agent login: the API secret was NOT stored: no usable keyring (\(error.description)).
                Keep it in a file only you can read instead, for example:
                  (umask 077 && cat > \(file))    paste the secret, press Enter and Ctrl-D
                  chmod 600 \(file)
                and set RELAVOI_API_SECRET_FILE=\(file) in the agent's environment
                (or api-secret-file = \(file) in the [agent] group of \(configPath)).
                """)
        }

        do {
            try AgentConfigWriter.setAPIKey(apiKey, path: configPath)
        } catch {
            io.err("relavoi-agent login: the API key was NOT saved: \(error.description)")
            return exitNotStored
        }
        guard stored else {
            io.out("Saved api-key in \(configPath).")
            return exitNotStored
        }
        io.out("Stored the API secret in the keyring as \"\(label)\" and api-key in \(configPath).")
        return exitOK
    }

    /// The message that stops login, or nil to go on (warning for `--force`).
    private static func verdictProblem(_ verdict: CredentialShape.Verdict, force: Bool, io: IO) -> String? {
        switch verdict {
        case .ok:
            return nil
        case .invalid(let problem):
            return problem
        case .unusual(let problem):
            guard force else { return "\(problem); use --force to store it anyway" }
            io.err("relavoi-agent login: warning: \(problem); storing it anyway (--force)")
            return nil
        }
    }
}
