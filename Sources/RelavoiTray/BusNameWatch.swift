import CGLib
import RelavoiGLib

/// Follows who owns a well-known name on a connection: `onOwner` hears the
/// unique name of each new owner, and nil when the name has none (also at
/// the start). A changed owner is heard as nil, then the new owner.
@MainActor
public final class BusNameWatch {
    private final class Handle {
        weak var watch: BusNameWatch?
        init(_ watch: BusNameWatch) { self.watch = watch }
    }

    public let name: String
    public private(set) var owner: String?
    private let onOwner: @MainActor (String?) -> Void
    private var watchID: guint = 0

    public init(connection: OpaquePointer, name: String, onOwner: @escaping @MainActor (String?) -> Void) {
        self.name = name
        self.onOwner = onOwner
        let appeared: GBusNameAppearedCallback = { _, _, owner, data in
            nonisolated(unsafe) let data = data
            let owner = owner.map { String(cString: $0) }
            MainActor.assumeIsolated {
                Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue().watch?.changed(owner)
            }
        }
        let vanished: GBusNameVanishedCallback = { _, _, data in
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue().watch?.changed(nil)
            }
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        watchID = g_bus_watch_name_on_connection(
            connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE, appeared, vanished,
            Unmanaged.passRetained(Handle(self)).toOpaque(), destroy)
    }

    isolated deinit { stop() }

    public func stop() {
        guard watchID != 0 else { return }
        g_bus_unwatch_name(watchID)
        watchID = 0
    }

    private func changed(_ newOwner: String?) {
        owner = newOwner
        onOwner(newOwner)
    }
}

/// Registers the item with `org.kde.StatusNotifierWatcher` whenever a
/// watcher owns that name: at the start and after each restart of the panel.
@MainActor
public final class StatusNotifierRegistration {
    public static let watcherName = "org.kde.StatusNotifierWatcher"
    public static let watcherPath = "/StatusNotifierWatcher"

    private let connection: OpaquePointer
    private var watch: BusNameWatch?
    /// How many registrations the watchers accepted (diagnostics, logs).
    public private(set) var acceptedCount = 0

    public init(connection: OpaquePointer) {
        self.connection = connection
    }

    public func start() {
        guard watch == nil else { return }
        watch = BusNameWatch(connection: connection, name: Self.watcherName) { [weak self] owner in
            guard let self else { return }
            if let owner {
                self.register(with: owner)
            } else {
                Log.debug("tray item: no \(Self.watcherName) on the bus; the item waits for one")
            }
        }
    }

    public func stop() {
        watch?.stop()
        watch = nil
    }

    /// The service argument is the connection's unique name: the watcher
    /// then finds the item at the standard path, `/StatusNotifierItem`.
    private func register(with owner: String) {
        let service = String(cString: g_dbus_connection_get_unique_name(connection))
        final class Box {
            weak var registration: StatusNotifierRegistration?
            let owner: String
            init(_ registration: StatusNotifierRegistration, _ owner: String) {
                self.registration = registration
                self.owner = owner
            }
        }
        let callback: GAsyncReadyCallback = { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            if let reply { g_variant_unref(reply) }
            let failure = error.map { GErrorText.take($0) }
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
                if let failure {
                    Log.warning("tray item: the StatusNotifierWatcher (\(box.owner)) refused the item: \(failure)")
                } else {
                    box.registration?.acceptedCount += 1
                    Log.debug("tray item: registered with the StatusNotifierWatcher (\(box.owner))")
                }
            }
        }
        g_dbus_connection_call(
            connection, owner, Self.watcherPath, Self.watcherName, "RegisterStatusNotifierItem",
            TrayVariants.tuple([g_variant_new_string(service)]), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 10_000, nil,
            callback, Unmanaged.passRetained(Box(self, owner)).toOpaque())
    }
}
