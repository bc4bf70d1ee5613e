import CGLib
import RelavoiDBus
import RelavoiGLib

extension BusConnection {
    /// A connection of its own to the session bus, with its own unique name
    /// (tests use it to play a second process).
    public static func privateSession() throws(Failure) -> BusConnection {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw Failure(description: "no session bus address: \(GErrorText.take(error))")
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let pointer = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw Failure(description: "cannot connect to the session bus: \(GErrorText.take(error))")
        }
        g_dbus_connection_set_exit_on_close(pointer, 0)
        return BusConnection.adopting(pointer)
    }
}
