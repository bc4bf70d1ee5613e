import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiSettings

/// Watches agent.conf and hands each change over, read and checked, for the
/// agent to take in place (`Agent.apply`): a new account (`relavoi-agent
/// login` writes the secret to the keyring, then the file) or any other
/// setting (the window, an edit by hand). A file that cannot be
/// read changes nothing.
@MainActor
final class SettingsWatch {
    private let path: String
    private let onChange: @MainActor (AgentSettings) -> Void
    private var fileWatch: FileChangeWatch?
    private lazy var recheck = DeadlineTimer(slack: 0) { [weak self] in self?.read() }

    init(path: String, onChange: @escaping @MainActor (AgentSettings) -> Void) {
        self.path = path
        self.onChange = onChange
        // The folder (0700, as login makes it) before the watch, so inotify watches
        // it at once instead of GLib's poll of a missing folder.
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        fileWatch = FileChangeWatch(path: path) { [weak self] in
            // A replace comes as several events: read once they are over.
            self?.recheck.schedule(at: Date().addingTimeInterval(0.2), now: Date())
        }
        if fileWatch == nil { Log.warning("cannot watch \(path): restart the agent after changing it") }
    }

    func stop() {
        fileWatch = nil
        recheck.schedule(at: nil, now: Date())
    }

    private func read() {
        do {
            onChange(try AgentSettingsLoader.load(path: path))
        } catch {
            // Half-written or wrong: the person is still at it; the next change is read again.
            Log.warning("\(path) changed but cannot be used: \(error); the settings in use stay")
        }
    }
}
