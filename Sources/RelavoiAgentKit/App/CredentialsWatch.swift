import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiSettings

/// Watches agent.conf for a new account (`relavoi-agent login` writes the
/// secret to the keyring, then the file) and hands it over, read and
/// checked, to be taken in place. Other keys changing is not its business.
@MainActor
final class CredentialsWatch {
    /// The account the agent runs with: what a change is compared against.
    struct Account: Equatable {
        var apiKey: String?
        var tenantId: String?
        var baseURL: String
        var webSocketURL: String?
        var userPhone: String?
        var secret: String

        init(_ settings: AgentSettings, secret: String) {
            apiKey = settings.apiKey
            tenantId = settings.tenantId
            baseURL = settings.baseURL
            webSocketURL = settings.webSocketURL
            userPhone = settings.userPhone
            self.secret = secret
        }
    }

    private let path: String
    private var current: Account?
    private let onNewAccount: @MainActor (AgentSettings, String) -> Void
    private var monitor: FileChangeMonitor?
    private lazy var recheck = DeadlineTimer(slack: 0) { [weak self] in self?.read() }

    /// `current`: the account in use, nil when not set up.
    init(path: String, current: Account?, onNewAccount: @escaping @MainActor (AgentSettings, String) -> Void) {
        self.path = path
        self.current = current
        self.onNewAccount = onNewAccount
        monitor = FileChangeMonitor(path: path) { [weak self] in
            // A replace comes as several events: read once they are over.
            self?.recheck.schedule(at: Date().addingTimeInterval(0.2), now: Date())
        }
        if monitor == nil { Log.warning("cannot watch \(path): restart the agent after `relavoi-agent login`") }
    }

    func stop() {
        monitor = nil
        recheck.schedule(at: nil, now: Date())
    }

    private func read() {
        let settings: AgentSettings
        let secret: String?
        do {
            settings = try AgentSettingsLoader.load(path: path)
            secret = try AccountSecret.find(for: settings)
        } catch {
            // Half-written or wrong: the person is still at it; the next change is read again.
            Log.warning("\(path) changed but cannot be used yet: \(error)")
            return
        }
        guard let secret else { return }
        let account = Account(settings, secret: secret)
        guard account != current else { return }
        current = account
        onNewAccount(settings, secret)
    }
}
