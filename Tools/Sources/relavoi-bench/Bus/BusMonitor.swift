import CGLib
import Foundation
import RelavoiGLib

/// Sees every notification message on the session bus, as the bus routes it
/// (org.freedesktop.DBus.Monitoring.BecomeMonitor), and timestamps each with
/// CLOCK_MONOTONIC on arrival, in GDBus's worker thread (a filter function,
/// before any main-loop hop). The copy reaches the monitor when the bus hands
/// the original to its destination, so a `Notify`'s time is when the
/// notification server receives it, whatever the server (dbusmock, dunst).
final class BusMonitor: @unchecked Sendable {
    struct NotifyCall: Sendable {
        var time: UInt64
        var sender: String
        var serial: UInt32
        var replacesId: UInt32
        var summary: String
        var body: String
    }

    struct Reply: Sendable {
        var time: UInt64
        var destination: String
        var replySerial: UInt32
    }

    struct CloseCall: Sendable {
        var time: UInt64
        var sender: String
        var serial: UInt32
    }

    private let connection: OpaquePointer
    private let ownName: String
    private let lock = NSLock()
    private var notifyLog: [NotifyCall] = []
    private var replyLog: [ReplyKey: Reply] = [:]
    private var closeLog: [CloseCall] = []

    static func start() throws -> BusMonitor {
        let connection = try BusNames.privateConnection()
        let monitor = BusMonitor(connection: connection, ownName: BusNames.uniqueName(connection))
        try monitor.becomeMonitor()
        return monitor
    }

    private init(connection: OpaquePointer, ownName: String) {
        self.connection = connection
        self.ownName = ownName
        let filter: GDBusMessageFilterFunction = { _, message, incoming, data in
            let time = Clock.now()
            guard incoming != 0, let message, let data else { return message }
            let monitor = Unmanaged<BusMonitor>.fromOpaque(data).takeUnretainedValue()
            // Replies and signals meant for this connection itself (BecomeMonitor's answer).
            if let destination = g_dbus_message_get_destination(message),
                String(cString: destination) == monitor.ownName
            {
                return message
            }
            monitor.record(message, at: time)
            g_object_unref(UnsafeMutableRawPointer(message))
            return nil  // a monitor must never answer what it sees
        }
        // The monitor lives as long as the benchmark.
        g_dbus_connection_add_filter(connection, filter, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func becomeMonitor() throws {
        let rules = [
            "type='method_call',interface='org.freedesktop.Notifications'",
            "type='method_return'",
        ]
        let arguments = GVariantValues.tuple([
            GVariantValues.array(of: "s", rules.map { g_variant_new_string($0) }), g_variant_new_uint32(0),
        ])
        var error: UnsafeMutablePointer<GError>?
        guard
            let reply = g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.Monitoring",
                "BecomeMonitor", arguments, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
        else {
            throw BenchError("BecomeMonitor refused: \(GErrorText.take(error))")
        }
        g_variant_unref(reply)
    }

    // MARK: Recording (GDBus worker thread)

    private func record(_ message: OpaquePointer, at time: UInt64) {
        let sender = g_dbus_message_get_sender(message).map { String(cString: $0) } ?? ""
        switch g_dbus_message_get_message_type(message) {
        case G_DBUS_MESSAGE_TYPE_METHOD_CALL:
            let member = g_dbus_message_get_member(message).map { String(cString: $0) } ?? ""
            if member == "Notify", let body = g_dbus_message_get_body(message) {
                let call = NotifyCall(
                    time: time, sender: sender, serial: g_dbus_message_get_serial(message),
                    replacesId: Self.uint32(body, 1), summary: Self.string(body, 3), body: Self.string(body, 4))
                lock.withLock { notifyLog.append(call) }
            } else if member == "CloseNotification" {
                let call = CloseCall(time: time, sender: sender, serial: g_dbus_message_get_serial(message))
                lock.withLock { closeLog.append(call) }
            } else {
                return
            }
        case G_DBUS_MESSAGE_TYPE_METHOD_RETURN:
            let destination = g_dbus_message_get_destination(message).map { String(cString: $0) } ?? ""
            let serial = g_dbus_message_get_reply_serial(message)
            let reply = Reply(time: time, destination: destination, replySerial: serial)
            lock.withLock { replyLog[Self.replyKey(destination, serial)] = reply }
        default:
            return
        }
        g_main_context_wakeup(nil)  // the benchmark's loop may be waiting for this
    }

    private static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return "" }
        defer { g_variant_unref(child) }
        return g_variant_get_string(child, nil).map { String(cString: $0) } ?? ""
    }

    private static func uint32(_ tuple: OpaquePointer, _ index: Int) -> UInt32 {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return 0 }
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }

    private struct ReplyKey: Hashable {
        var destination: String
        var serial: UInt32
    }

    private static func replyKey(_ destination: String, _ serial: UInt32) -> ReplyKey {
        ReplyKey(destination: destination, serial: serial)
    }

    // MARK: Reading (any thread)

    var notifyCount: Int { lock.withLock { notifyLog.count } }
    var closeCount: Int { lock.withLock { closeLog.count } }

    func notifies(from index: Int) -> [NotifyCall] {
        lock.withLock { index < notifyLog.count ? Array(notifyLog[index...]) : [] }
    }

    func closes(from index: Int) -> [CloseCall] {
        lock.withLock { index < closeLog.count ? Array(closeLog[index...]) : [] }
    }

    /// When the server's answer to `call` passed the bus (the banner exists then).
    func reply(to call: NotifyCall) -> UInt64? { reply(sender: call.sender, serial: call.serial) }

    func reply(sender: String, serial: UInt32) -> UInt64? {
        lock.withLock { replyLog[Self.replyKey(sender, serial)]?.time }
    }

    /// Forgets what was seen (between phases; keeps memory flat).
    func clear() {
        lock.withLock {
            notifyLog.removeAll()
            replyLog.removeAll()
            closeLog.removeAll()
        }
    }
}
