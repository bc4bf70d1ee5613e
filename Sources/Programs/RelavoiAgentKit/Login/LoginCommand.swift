import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings
import RelavoiStream

/// `relavoi-agent login`: asks for the API key and secret, checks them with
/// the token endpoint, takes the tenant id from the token, asks for the
/// user's phone, then stores the secret in the keyring (label "Relavoi API
/// secret (<first 12 characters of the key>…)") and the rest in agent.conf.
/// Nothing is saved before the check passed. See `LoginOptions.usage`.
public enum LoginCommand {
    public static let exitOK: Int32 = 0
    public static let exitNotStored: Int32 = 1
    public static let exitUsage: Int32 = 2
    public static let exitRefused: Int32 = 3
    public static let exitUnreachable: Int32 = 4

    /// Runs `login` with the words after `login`; returns the exit status.
    /// Call on the main thread: the check runs the GLib main loop.
    public static func run(_ args: [String]) -> Int32 { run(args, io: .terminal) }

    /// What `login` reads and writes; tests replace the terminal, the keyring and the server.
    struct IO {
        var readLine: (_ prompt: String, _ hidden: Bool) -> String?
        var out: (String) -> Void
        var err: (String) -> Void
        var storeSecret: (_ secret: APISecret, _ apiKey: String, _ label: String) throws(Keyring.StoreError) -> Void
        var checkCredentials: (_ apiKey: String, _ secret: APISecret, _ config: RelavoiConfig) -> CredentialCheckResult
        var environment: [String: String]
        var defaultConfigPath: () -> String
        /// GNOME Shell, for the top-bar question.
        var topBar: LoginTopBarQuestion.Shell = .absent

        static var terminal: IO {
            IO(
                readLine: TerminalPrompt.readLine(prompt:hidden:),
                out: { StandardStreams.output(($0 + "\n")) },
                err: { StandardStreams.error(($0 + "\n")) },
                storeSecret: { (secret, apiKey, label) throws(Keyring.StoreError) in
                    try Keyring.store(secret: secret, apiKey: apiKey, label: label)
                },
                checkCredentials: CredentialChecker.check(apiKey:secret:config:),
                environment: ProcessInfo.processInfo.environment,
                defaultConfigPath: { AgentSettingsFile.defaultPath },
                topBar: .session(environment: ProcessInfo.processInfo.environment))
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
            io.err(L("Try '%s --help'.", "relavoi-agent login"))
            return exitUsage
        case .run(let parsed):
            options = parsed
        }
        func fail(_ message: String, _ code: Int32 = exitUsage) -> Int32 {
            io.err("relavoi-agent login: \(message)")
            return code
        }

        // What is configured already, and where to check the pair.
        let configPath = options.configPath ?? io.defaultConfigPath()
        let existing: [String: String]
        do {
            existing = try KeyFile.load(path: configPath)[AgentSettings.group] ?? [:]
        } catch {
            // Never overwrite a file we could not read: it may hold settings we would lose.
            return fail(L("cannot read %s (left unchanged): %s", configPath, "\(error)"), exitNotStored)
        }
        let target: LoginTarget
        switch LoginTarget.resolve(
            baseURL: options.baseURL, userPhone: options.userPhone, existing: existing, environment: io.environment)
        {
        case .success(let resolved): target = resolved
        case .failure(let error): return fail(L("%s (in %s, the options or the environment)", "\(error)", configPath))
        }

        // The key and the secret, in the shapes Relavoi issues.
        let rawKey = options.apiKey ?? io.readLine(L("Relavoi API key: "), false)
        guard let apiKey = rawKey?.trimmingWhitespace(), !apiKey.isEmpty else {
            return fail(L("no API key given"))
        }
        if let problem = verdictProblem(CredentialShape.checkKey(apiKey), force: options.force, io: io) {
            return fail(problem)
        }
        let rawSecret = io.readLine(L("Relavoi API secret (not shown): "), true)
        guard let secretText = rawSecret?.trimmingWhitespace(), !secretText.isEmpty else {
            return fail(L("no API secret given"))
        }
        if let problem = verdictProblem(CredentialShape.checkSecret(secretText), force: options.force, io: io) {
            return fail(problem)
        }
        let secret = APISecret(secretText)

        // The check, before anything is saved.
        var tokenTenant: String?
        if options.offline {
            io.out(L("Not checking the key and secret with the server (--offline)."))
        } else {
            switch check(apiKey: apiKey, secret: secret, target: target, io: io) {
            case .success(let tenant): tokenTenant = tenant
            case .failure(let exit): return exit.code
            }
        }

        let questions = LoginQuestions(io: io)
        guard let tenant = questions.tenant(fromToken: tokenTenant, configured: target.configuredTenant) else {
            return fail(L("no tenant id given; nothing was saved"))
        }
        let phone = target.userPhone ?? questions.phone(configured: target.configuredPhone)

        // Saving: the secret in the keyring, the rest in agent.conf.
        let label = "Relavoi API secret (\(apiKey.prefix(12))…)"
        var stored = true
        do {
            try io.storeSecret(secret, apiKey, label)
        } catch {
            stored = false
            explainNoKeyring(error, configPath: configPath, io: io)
        }
        var values: [(key: String, value: String)] = [(Setting.apiKey.key, apiKey), (Setting.tenantId.key, tenant)]
        if let phone { values.append((Setting.userPhone.key, phone)) }
        if let baseURL = options.baseURL { values.append((Setting.baseURL.key, baseURL)) }
        do {
            try AgentSettingsWriter.set(values, path: configPath)
        } catch {
            return fail(L("the settings were NOT saved: %s", error.description), exitNotStored)
        }
        io.out(L("Saved %s in %s.", values.map(\.key).joined(separator: ", "), configPath))
        if phone == nil, target.configuredPhone == nil {
            io.out(
                L("No phone number: banners show Verified only through a session's own data (add user-phone later)."))
        }
        guard stored else { return exitNotStored }
        io.out(L("Stored the API secret in the keyring as \"%s\".", label))
        LoginTopBarQuestion(io: io).ask(configured: existing[Setting.topBar.key], configPath: configPath)
        io.out(
            L(
                "Start the agent: systemctl --user start relavoi-agent (or log out and in again); an agent already running takes these at once."
            ))
        return exitOK
    }

    private struct EarlyExit: Error { let code: Int32 }

    /// The token exchange; on success the token's tenant id, when it has a usable one.
    private static func check(apiKey: String, secret: APISecret, target: LoginTarget, io: IO) -> Result<
        String?, EarlyExit
    > {
        let server = target.settings.baseURL
        io.out(L("Checking the API key and secret with %s …", server))
        switch io.checkCredentials(apiKey, secret, target.config) {
        case .accepted(let token):
            let claim = AccessTokenClaims(jwt: token)?.tenantId
            guard let claim else {
                io.out(L("The key and secret work; the access token names no tenant."))
                return .success(nil)
            }
            guard UUID(uuidString: claim) != nil else {
                io.err(
                    "relavoi-agent login: " + L("warning: the access token's tenant id is not a UUID; asking for it"))
                return .success(nil)
            }
            io.out(L("The key and secret work: tenant %s.", claim.lowercased()))
            return .success(claim.lowercased())
        case .refused(let status):
            io.err(
                "relavoi-agent login: "
                    + L(
                        "%s refused this API key and secret (HTTP %s); nothing was saved. Copy both again from the Relavoi dashboard and run login again.",
                        server, String(status))
            )
            return .failure(EarlyExit(code: exitRefused))
        case .rateLimited(let after):
            let message =
                after.map {
                    L(
                        "too many token requests for this API key (HTTP 429); nothing was saved. Try again in %s s.",
                        String(Int($0.rounded(.up))))
                }
                ?? L("too many token requests for this API key (HTTP 429); nothing was saved. Try again in a minute.")
            io.err("relavoi-agent login: " + message)
            return .failure(EarlyExit(code: exitNotStored))
        case .serverError(let problem):
            io.err(
                "relavoi-agent login: "
                    + L(
                        "%s could not check the key and secret: %s; nothing was saved. Try again later, or use --offline to save without checking.",
                        server, problem)
            )
            return .failure(EarlyExit(code: exitNotStored))
        case .unreachable(let problem):
            io.err(
                "relavoi-agent login: "
                    + L(
                        "cannot reach %s (%s); nothing was saved. Check the network and run login again, or use --offline to save without checking.",
                        server, problem)
            )
            return .failure(EarlyExit(code: exitUnreachable))
        }
    }

    private static func explainNoKeyring(_ error: Keyring.StoreError, configPath: String, io: IO) {
        let folder = configPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let file = (folder.isEmpty ? "." : folder) + "/api-secret"
        io.err(
            "relavoi-agent login: "
                + L(
                    "the API secret was NOT stored: no usable keyring (%1$s).\nKeep it in a file only you can read instead, for example:\n  (umask 077 && cat > %2$s)    paste the secret, press Enter and Ctrl-D\n  chmod 600 %2$s\nand set RELAVOI_API_SECRET_FILE=%2$s in the agent's environment\n(or api-secret-file = %2$s in the [agent] group of %3$s).",
                    error.description, file, configPath))
    }

    /// The message that stops login, or nil to go on (warning for `--force`).
    private static func verdictProblem(_ verdict: CredentialShape.Verdict, force: Bool, io: IO) -> String? {
        switch verdict {
        case .ok:
            return nil
        case .invalid(let problem):
            return problem
        case .unusual(let problem):
            guard force else { return L("%s; use --force to store it anyway", problem) }
            io.err("relavoi-agent login: " + L("warning: %s; storing it anyway (--force)", problem))
            return nil
        }
    }
}
