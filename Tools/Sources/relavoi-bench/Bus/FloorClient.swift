import CGLib
import Foundation
import RelavoiGLib

/// The D-Bus floor: a minimal client (one private GDBus connection, no
/// library on top) timing a bare `Notify` round trip to the running server.
/// Each call updates the client's one notification in place (as a banner tick
/// does), so nothing piles up on screen.
final class FloorClient {
    private let connection: OpaquePointer
    private var notificationId: UInt32 = 0
    private var sequence = 0
    let uniqueName: String

    init() throws {
        connection = try BusNames.privateConnection()
        uniqueName = BusNames.uniqueName(connection)
    }

    deinit {
        close()
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// One round trip, in milliseconds; nil when the server did not answer.
    func roundTrip() -> Double? {
        sequence += 1
        let arguments = NotifyTuple.make(
            appName: "relavoi-bench", replacesId: notificationId, summary: "D-Bus floor",
            body: "+15550000000 · 00:\(String(format: "%02d", sequence % 60))\n✔ Verified",
            hints: [
                ("category", g_variant_new_string("call")), ("urgency", g_variant_new_byte(1)),
                ("desktop-entry", g_variant_new_string("relavoi-bench")), ("resident", g_variant_new_boolean(1)),
                ("suppress-sound", g_variant_new_boolean(1)),
            ], timeout: 0)
        g_variant_ref_sink(arguments)
        defer { g_variant_unref(arguments) }
        let start = Clock.now()
        let reply = g_dbus_connection_call_sync(
            connection, BusNames.notifications, "/org/freedesktop/Notifications", BusNames.notifications, "Notify",
            arguments, VariantType.notifyReply, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, nil)
        let end = Clock.now()
        guard let reply else { return nil }
        let id = g_variant_get_child_value(reply, 0)!
        notificationId = g_variant_get_uint32(id)
        g_variant_unref(id)
        g_variant_unref(reply)
        return Clock.milliseconds(start, end)
    }

    /// Closes the client's notification (not timed).
    func close() {
        guard notificationId != 0 else { return }
        let arguments = GVariantValues.tuple([g_variant_new_uint32(notificationId)])
        notificationId = 0
        if let reply = g_dbus_connection_call_sync(
            connection, BusNames.notifications, "/org/freedesktop/Notifications", BusNames.notifications,
            "CloseNotification", arguments, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, nil)
        {
            g_variant_unref(reply)
        }
    }
}
