import CGLib
import RelavoiDBus
import RelavoiGLib

/// The session bus connection: at logout the bus goes away and the
/// connection's `closed` signal fires. Clears the connection's exit-on-close
/// (which would `raise(SIGTERM)`) so the agent ends in its own orderly way.
@MainActor
public final class SessionBusWatch {
    /// GObject's `user_data`; its weak reference is read on the main actor only.
    private final class Handle: @unchecked Sendable {
        weak var watch: SessionBusWatch?
        init(_ watch: SessionBusWatch) { self.watch = watch }
    }

    private let connection: BusConnection
    private let onClosed: @MainActor () -> Void
    private var handlerID: gulong = 0
    private var reported = false

    /// - Parameter connection: the agent's shared session connection (or a test's own).
    public init(connection: BusConnection, onClosed: @escaping @MainActor () -> Void) {
        self.connection = connection
        self.onClosed = onClosed
    }

    isolated deinit { stop() }

    public func start() {
        guard handlerID == 0 else { return }
        let pointer = connection.pointer
        g_dbus_connection_set_exit_on_close(pointer, 0)
        let onSignal: @convention(c) (OpaquePointer?, gboolean, gpointer?, gpointer?) -> Void = { _, _, _, data in
            guard let data else { return }
            let handle = Unmanaged<Handle>.fromOpaque(data).takeUnretainedValue()
            GLibCallbacks.onMain { handle.watch?.closed() }
        }
        handlerID = GLibCallbacks.connect(
            UnsafeMutableRawPointer(pointer), "closed", unsafeBitCast(onSignal, to: GCallback.self),
            context: Handle(self))
        Log.debug("following the session bus connection for logout")
        // It may have closed before the handler was connected.
        if connection.isClosed { closed() }
    }

    public func stop() {
        if handlerID != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection.pointer), handlerID) }
        handlerID = 0
    }

    private func closed() {
        Log.debug("the session bus connection closed")
        guard !reported else { return }
        reported = true
        onClosed()
    }
}
