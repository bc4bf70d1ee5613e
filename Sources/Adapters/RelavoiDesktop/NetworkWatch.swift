import CGLib
import Dispatch
import FoundationEssentials
import Glibc
import RelavoiGLib

/// GIO's network monitor (NetworkManager, the kernel's routes over netlink or
/// the portal, whichever GIO picks; `GIO_USE_NETWORK_MONITOR` chooses):
/// reports each change with the network's availability.
///
/// Two signals matter: `network-changed` (routes changed, e.g. a new
/// default route) and `notify::network-available` (GIO's NetworkManager
/// monitor reports NetworkManager's own state only this way).
@MainActor
public final class NetworkWatch {
    /// GObject's `user_data`; its weak reference is read on the main actor only.
    private final class Handle: @unchecked Sendable {
        weak var watch: NetworkWatch?
        init(_ watch: NetworkWatch) { self.watch = watch }
    }

    /// A pointer handed from the worker thread to the main actor.
    private struct MonitorPointer: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let onChange: @MainActor (_ available: Bool) -> Void
    private let onReady: @MainActor (_ available: Bool) -> Void
    private(set) var monitor: OpaquePointer?
    private var handlerIDs: [gulong] = []
    private var stopped = false

    /// - Parameters:
    ///   - onReady: once, with the availability when the watch attached.
    ///   - onChange: on every change signal, with the availability then.
    public init(onReady: @escaping @MainActor (Bool) -> Void, onChange: @escaping @MainActor (Bool) -> Void) {
        self.onReady = onReady
        self.onChange = onChange
    }

    isolated deinit { stop() }

    /// Attaches to the default monitor. Making it may talk to NetworkManager
    /// synchronously over D-Bus, so that happens on a worker thread (with no
    /// context of its own pushed, GIO delivers the monitor's signals to the
    /// main context all the same).
    public func start() {
        guard monitor == nil, !stopped else { return }
        let handle = Handle(self)
        Threads.detach(name: "relavoi-worker") {
            guard let monitor = g_network_monitor_get_default() else { return }
            let passed = MonitorPointer(pointer: monitor)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { handle.watch?.attach(passed.pointer) }
            }
        }
    }

    /// Follows `monitor` (a `GNetworkMonitor *`). Tests pass their own.
    func attach(_ monitor: OpaquePointer) {
        guard self.monitor == nil, !stopped else { return }
        self.monitor = monitor
        let instance = UnsafeMutableRawPointer(monitor)
        let changed: @convention(c) (OpaquePointer?, gboolean, gpointer?) -> Void = { _, _, data in
            NetworkWatch.deliver(data)
        }
        let notify: @convention(c) (OpaquePointer?, gpointer?, gpointer?) -> Void = { _, _, data in
            NetworkWatch.deliver(data)
        }
        handlerIDs = [
            GLibCallbacks.connect(
                instance, "network-changed", unsafeBitCast(changed, to: GCallback.self), context: Handle(self)),
            GLibCallbacks.connect(
                instance, "notify::network-available", unsafeBitCast(notify, to: GCallback.self),
                context: Handle(self)),
        ]
        let available = isAvailable
        let kind = g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(monitor)).map { String(cString: $0) }
        Log.info(
            "network: following \(kind ?? "the network monitor") (network \(available ? "available" : "unavailable"))")
        onReady(available)
    }

    public func stop() {
        stopped = true
        if let monitor {
            for id in handlerIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), id) }
        }
        handlerIDs = []
        monitor = nil
    }

    public var isAvailable: Bool {
        guard let monitor else { return true }
        return g_network_monitor_get_network_available(monitor) != 0
    }

    private nonisolated static func deliver(_ data: gpointer?) {
        guard let data else { return }
        let handle = Unmanaged<Handle>.fromOpaque(data).takeUnretainedValue()
        GLibCallbacks.onMain {
            guard let watch = handle.watch, watch.monitor != nil else { return }
            watch.onChange(watch.isAvailable)
        }
    }
}
