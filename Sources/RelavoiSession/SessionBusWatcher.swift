import CGLib
import RelavoiGLib

/// The session bus connection: at logout the bus goes away and the
/// connection's `closed` signal fires. Clears the connection's exit-on-close
/// (which would `raise(SIGTERM)`) so the agent ends in its own orderly way.
@MainActor
public final class SessionBusWatcher {
    /// GObject's `user_data`; its weak reference is read on the main actor only.
    private final class Handle: @unchecked Sendable {
        weak var watcher: SessionBusWatcher?
        init(_ watcher: SessionBusWatcher) { self.watcher = watcher }
    }

    private let onClosed: @MainActor () -> Void
    private let cancellable = g_cancellable_new()
    private var connection: OpaquePointer?
    private var handlerID: gulong = 0
    private var reported = false

    public init(onClosed: @escaping @MainActor () -> Void) {
        self.onClosed = onClosed
    }

    isolated deinit { stop() }

    public func start() {
        guard connection == nil else { return }
        AsyncBus.get(
            G_BUS_TYPE_SESSION, cancellable: cancellable, for: self, isAttached: { $0.connection != nil },
            consequence: "logout is noticed by SIGTERM only"
        ) { watcher, connection in
            watcher.attach(connection)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }

    /// Follows `connection` (a `GDBusConnection *`, referenced here). Tests pass their own.
    func attach(_ connection: OpaquePointer) {
        g_object_ref(UnsafeMutableRawPointer(connection))
        self.connection = connection
        g_dbus_connection_set_exit_on_close(connection, 0)
        let onSignal: @convention(c) (OpaquePointer?, gboolean, gpointer?, gpointer?) -> Void = { _, _, _, data in
            guard let data else { return }
            let handle = Unmanaged<Handle>.fromOpaque(data).takeUnretainedValue()
            GLibCallbacks.onMain { handle.watcher?.closed() }
        }
        handlerID = GLibCallbacks.connect(
            UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(onSignal, to: GCallback.self),
            context: Handle(self))
        Log.debug("following the session bus connection for logout")
        // It may have closed before the handler was connected.
        if g_dbus_connection_is_closed(connection) != 0 { self.closed() }
    }

    public func stop() {
        g_cancellable_cancel(cancellable)
        if let connection {
            if handlerID != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), handlerID) }
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        handlerID = 0
        connection = nil
    }

    private func closed() {
        Log.debug("the session bus connection closed")
        guard !reported else { return }
        reported = true
        onClosed()
    }
}
