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

    public init(connection: BusConnection, name: String, onOwner: @escaping @MainActor (String?) -> Void) {
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
            connection.pointer, name, G_BUS_NAME_WATCHER_FLAGS_NONE, appeared, vanished,
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
