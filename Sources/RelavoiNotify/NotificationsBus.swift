import CGLib
import RelavoiGLib

/// Where the notification server is on the session bus (the spec's names).
enum NotificationsBus {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    /// Closes notification `id` on `server` (a unique name), no answer
    /// wanted: a stray one; closing one already gone only errs.
    static func close(id: UInt32, on server: String, bus: OpaquePointer) {
        g_dbus_connection_call(
            bus, server, path, interface, "CloseNotification", GVariantValues.tuple([g_variant_new_uint32(id)]), nil,
            G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil, nil, nil)
    }
}
