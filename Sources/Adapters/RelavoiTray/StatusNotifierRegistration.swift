import RelavoiDBus
import RelavoiGLib

/// Registers the item with `org.kde.StatusNotifierWatcher` whenever a
/// watcher owns that name: at the start and after each restart of the panel.
@MainActor
public final class StatusNotifierRegistration {
    public static let watcherName = "org.kde.StatusNotifierWatcher"
    public static let watcherPath = "/StatusNotifierWatcher"

    private let connection: BusConnection
    private var watch: BusNameWatch?
    /// Called when a watcher comes (a panel can show the item from now on).
    public var onWatcherAppeared: (() -> Void)?
    /// The watcher's unique name while one is on the bus: only then can a
    /// panel show the item, so only then are its change signals worth sending.
    public private(set) var watcherOwner: String?

    public init(connection: BusConnection) {
        self.connection = connection
    }

    public func start() {
        guard watch == nil else { return }
        watch = BusNameWatch(connection: connection, name: Self.watcherName) { [weak self] owner in
            guard let self else { return }
            self.watcherOwner = owner
            if let owner {
                self.register(with: owner)
                self.onWatcherAppeared?()
            } else {
                Log.debug("tray item: no \(Self.watcherName) on the bus; the item waits for one")
            }
        }
    }

    public func stop() {
        watch?.stop()
        watch = nil
        watcherOwner = nil
    }

    /// The service argument is the connection's unique name: the watcher
    /// then finds the item at the standard path, `/StatusNotifierItem`.
    private func register(with owner: String) {
        connection.callAsync(
            destination: owner, path: Self.watcherPath, interface: Self.watcherName,
            method: "RegisterStatusNotifierItem", arguments: [.string(connection.uniqueName)], autoStart: false,
            timeoutMilliseconds: 10_000
        ) { result in
            switch result {
            case .failure(let failure):
                Log.warning("tray item: the StatusNotifierWatcher (\(owner)) refused the item: \(failure)")
            case .success:
                Log.debug("tray item: registered with the StatusNotifierWatcher (\(owner))")
            }
        }
    }
}
