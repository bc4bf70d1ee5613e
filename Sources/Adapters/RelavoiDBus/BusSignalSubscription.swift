import CGLib
import RelavoiGLib

/// Hears the signals that match on a connection, on the main loop, until `cancel` (or
/// deinit). Each matching signal reaches `onSignal` with its sender's unique name and its
/// arguments as `DBusValue`s; one whose body cannot be read is dropped.
@MainActor
public final class BusSignalSubscription {
    public struct Signal: Equatable, Sendable {
        /// The sender's unique name (`:1.42`).
        public var sender: String
        public var path: String
        public var member: String
        public var arguments: [DBusValue]
    }

    private final class Handle {
        weak var subscription: BusSignalSubscription?
        init(_ subscription: BusSignalSubscription) { self.subscription = subscription }
    }

    private let connection: BusConnection
    private let onSignal: @MainActor (Signal) -> Void
    private var subscriptionID: guint = 0

    /// - Parameters: nil matches anything. `arg0` matches the first argument; with
    ///   `arg0IsNamespace` it matches names in it too (`org.mpris.MediaPlayer2` matches
    ///   `org.mpris.MediaPlayer2.mpv`). Subscribe on the main thread: GDBus delivers in the
    ///   context that is thread-default here.
    public init(
        connection: BusConnection, sender: String? = nil, interface: String?, member: String?, path: String? = nil,
        arg0: String? = nil, arg0IsNamespace: Bool = false, onSignal: @escaping @MainActor (Signal) -> Void
    ) {
        self.connection = connection
        self.onSignal = onSignal
        let callback: GDBusSignalCallback = { _, sender, path, _, member, parameters, data in
            guard let parameters, let body = try? DBusValue(gvariant: parameters) else { return }
            let signal = Signal(
                sender: sender.map { String(cString: $0) } ?? "", path: path.map { String(cString: $0) } ?? "",
                member: member.map { String(cString: $0) } ?? "", arguments: body.children ?? [])
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                guard let subscription = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue().subscription
                else { return }
                subscription.onSignal(signal)
            }
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        let flags = arg0IsNamespace ? G_DBUS_SIGNAL_FLAGS_MATCH_ARG0_NAMESPACE : G_DBUS_SIGNAL_FLAGS_NONE
        subscriptionID = g_dbus_connection_signal_subscribe(
            connection.pointer, sender, interface, member, path, arg0, flags, callback,
            Unmanaged.passRetained(Handle(self)).toOpaque(), destroy)
    }

    isolated deinit { cancel() }

    /// No more signals (idempotent).
    public func cancel() {
        guard subscriptionID != 0 else { return }
        g_dbus_connection_signal_unsubscribe(connection.pointer, subscriptionID)
        subscriptionID = 0
    }
}
