import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiSettings

/// Watches agent.conf and hands each change over, read and checked, to be
/// taken in place: a new account (`relavoi-agent login` writes the secret
/// to the keyring, then the file) or any other setting (the settings
/// window, an edit by hand). A file that cannot be used changes nothing.
@MainActor
final class SettingsWatch {
    /// The account the agent runs with: what tells a new account from the same one.
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

    /// What changed: the settings as now read; the account when it is a new
    /// one, or that it is gone (signed out: no key, tenant or secret now).
    struct Change {
        let settings: AgentSettings
        let newAccount: (settings: AgentSettings, secret: String)?
        let accountRemoved: Bool
    }

    private let path: String
    private var settings: AgentSettings
    private var account: Account?
    private let onChange: @MainActor (Change) -> Void
    private var monitor: FileChangeMonitor?
    private lazy var recheck = DeadlineTimer(slack: 0) { [weak self] in self?.read() }

    /// `settings` and `secret`: what the agent runs with (secret nil when not set up).
    init(path: String, settings: AgentSettings, secret: String?, onChange: @escaping @MainActor (Change) -> Void) {
        self.path = path
        self.settings = settings
        account = secret.map { Account(settings, secret: $0) }
        self.onChange = onChange
        // The folder (0700, as login makes it) before the watch, so inotify watches
        // it at once instead of GLib's poll of a missing folder.
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        monitor = FileChangeMonitor(path: path) { [weak self] in
            // A replace comes as several events: read once they are over.
            self?.recheck.schedule(at: Date().addingTimeInterval(0.2), now: Date())
        }
        if monitor == nil { Log.warning("cannot watch \(path): restart the agent after changing it") }
    }

    func stop() {
        monitor = nil
        recheck.schedule(at: nil, now: Date())
    }

    private func read() {
        let new: AgentSettings
        let secret: String?
        do {
            new = try AgentSettingsLoader.load(path: path)
            secret = try AccountSecret.find(for: new)
        } catch {
            // Half-written or wrong: the person is still at it; the next change is read again.
            Log.warning("\(path) changed but cannot be used: \(error); the settings in use stay")
            return
        }
        var newAccount: (settings: AgentSettings, secret: String)?
        let accountRemoved = secret == nil && account != nil
        if let secret, Account(new, secret: secret) != account {
            newAccount = (new, secret)
        }
        account = secret.map { Account(new, secret: $0) }
        guard new != settings || newAccount != nil || accountRemoved else { return }
        settings = new
        onChange(Change(settings: new, newAccount: newAccount, accountRemoved: accountRemoved))
    }
}
