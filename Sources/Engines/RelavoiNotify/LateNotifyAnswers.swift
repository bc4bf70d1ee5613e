import CGLib
import RelavoiDBus
import RelavoiGLib

/// The answers of a notification server to `Notify` calls that GDBus gave up
/// on. libnotify's show is a synchronous call with GDBus's default 25 s
/// timeout; a hung server still carries it out once it runs again, and its
/// answer, with the id of the notification it made, then reaches the process
/// and is dropped. A filter on libnotify's connection (the process's shared
/// session bus) hears the `Notify` calls go and their answers come, and hands
/// the answers of the calls the delivery thread `awaitLastCall`s to
/// `onAnswer` on the delivery thread's context.
final class LateNotifyAnswers: @unchecked Sendable {
    /// How many calls not awaited and answers not awaited are kept (an answer
    /// may come before its call is awaited).
    private static let kept = 32

    private let connection: OpaquePointer
    private let context: OpaquePointer
    /// The call's serial and the notification's id (nil: the server answered with an error).
    private let onAnswer: (UInt32, UInt32?) -> Void
    private let lock = Lock()
    /// The `Notify` calls sent and not answered, oldest first: every awaited
    /// one (its late notification must reach the banner, or be closed), the
    /// latest `kept` of the others.
    private var sent: [UInt32] = []
    /// Answers to them that were not awaited (yet), oldest first.
    private var answers: [(serial: UInt32, id: UInt32?)] = []
    private var awaited: Set<UInt32> = []
    private var filter: guint = 0

    /// Nil without a session bus. `onAnswer` runs on `context`.
    init?(context: OpaquePointer, onAnswer: @escaping (UInt32, UInt32?) -> Void) {
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return nil }
        self.connection = connection
        self.context = g_main_context_ref(context)
        self.onAnswer = onAnswer
        let function: GDBusMessageFilterFunction = { _, message, incoming, data in
            Unmanaged<LateNotifyAnswers>.fromOpaque(data!).takeUnretainedValue().heard(
                message!, incoming: incoming != 0)
            return message
        }
        // GDBus may run the filter after its removal: the filter holds its own reference.
        let release: GDestroyNotify = { data in Unmanaged<LateNotifyAnswers>.fromOpaque(data!).release() }
        filter = g_dbus_connection_add_filter(
            connection, function, Unmanaged.passRetained(self).toOpaque(), release)
    }

    deinit {
        g_main_context_unref(context)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Stops listening (on the delivery thread, before it ends).
    func close() {
        lock.withLock { awaited.removeAll() }
        g_dbus_connection_remove_filter(connection, filter)
    }

    /// Awaits the answer to the last call this thread made on the connection,
    /// when it was a `Notify`; returns its serial, or nil when it was none (the
    /// answer could not be told).
    func awaitLastCall() -> UInt32? {
        let serial = g_dbus_connection_get_last_serial(connection)
        enum Found { case unknown, awaited, answered(id: UInt32?) }
        // One turn of the lock: an answer heard between two would be neither
        // among the answers nor awaited, and lost.
        let found = lock.withLock { () -> Found in
            if let index = answers.firstIndex(where: { $0.serial == serial }) {
                return .answered(id: answers.remove(at: index).id)
            }
            guard sent.contains(serial) else { return .unknown }
            awaited.insert(serial)
            return .awaited
        }
        switch found {
        case .unknown: return nil
        case .awaited: return serial
        case .answered(let id):
            deliver(serial, id)
            return serial
        }
    }

    /// Forgets what is awaited (the server is gone: no answer comes).
    func forget() {
        lock.withLock { awaited.removeAll() }
    }

    /// On GDBus's worker thread: every message the connection sends or gets.
    private func heard(_ message: OpaquePointer, incoming: Bool) {
        let type = g_dbus_message_get_message_type(message)
        if !incoming {
            guard type == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
                g_dbus_message_get_member(message).map({ String(cString: $0) }) == "Notify",
                g_dbus_message_get_interface(message).map({ String(cString: $0) }) == NotificationsBus.interface
            else { return }
            let serial = g_dbus_message_get_serial(message)
            lock.withLock {
                sent.append(serial)
                if sent.count > Self.kept + awaited.count,
                    let index = sent.firstIndex(where: { !awaited.contains($0) })
                {
                    sent.remove(at: index)
                }
            }
            return
        }
        guard type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR else { return }
        let serial = g_dbus_message_get_reply_serial(message)
        let id = type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN ? Self.id(in: message) : nil
        let isAwaited = lock.withLock { () -> Bool in
            guard let index = sent.firstIndex(of: serial) else { return false }
            sent.remove(at: index)
            if awaited.remove(serial) != nil { return true }
            answers.append((serial, id))
            if answers.count > Self.kept { answers.removeFirst() }
            return false
        }
        if isAwaited { deliver(serial, id) }
    }

    /// The `u` of a `Notify` answer.
    private static func id(in message: OpaquePointer) -> UInt32? {
        guard let body = g_dbus_message_get_body(message), GVariantValues.hasType(body, "(u)"),
            case .tuple(let values) = try? DBusValue(gvariant: body), case .uint32(let id)? = values.first
        else { return nil }
        return id
    }

    /// Calls `onAnswer` on the context, always later (never inside the caller's turn).
    private func deliver(_ serial: UInt32, _ id: UInt32?) {
        let job = Unmanaged.passRetained(Job { [self] in onAnswer(serial, id) }).toOpaque()
        let source = g_idle_source_new()!
        let run: GSourceFunc = { data in
            Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue().body()
            return gboolean(0)
        }
        let release: GDestroyNotify = { data in Unmanaged<Job>.fromOpaque(data!).release() }
        g_source_set_callback(source, run, job, release)
        g_source_attach(source, context)
        g_source_unref(source)
    }

    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
