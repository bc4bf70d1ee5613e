import CGLib
import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// Name ownership on the session bus, through the process's shared connection.
enum BusNames {
    static let notifications = "org.freedesktop.Notifications"

    static func hasOwner(_ name: String) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let arguments = GVariantValues.tuple([g_variant_new_string(name)])
        guard
            let reply = g_dbus_connection_call_sync(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                arguments, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000, nil, nil)
        else { return false }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// Waits (turning the loop) until `name` has an owner, or has none.
    static func wait(for name: String, owned: Bool, timeout: Double) -> Bool {
        LoopWait.until(timeout: timeout) { hasOwner(name) == owned }
    }

    /// The session bus address this process uses.
    static func sessionAddress() -> String? {
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, nil) else { return nil }
        defer { g_free(address) }
        return String(cString: address)
    }

    /// A connection of its own (own unique name, own worker thread use).
    static func privateConnection() throws -> OpaquePointer {
        guard let address = sessionAddress() else { throw BenchError("no session bus (run under dbus-run-session)") }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw BenchError("cannot connect to the session bus: \(GErrorText.take(error))")
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        return connection
    }

    static func uniqueName(_ connection: OpaquePointer) -> String {
        g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? ""
    }
}
