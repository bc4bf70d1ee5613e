import CGLib
import RelavoiGLib

/// A reference to a GDBus connection. GDBus connections are thread-safe, so
/// this may cross threads (`ctl` calls from any thread).
public final class BusConnection: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        package init(description: String) { self.description = description }
    }

    /// The `GDBusConnection *`, for adapters (libnotify, libsecret, the session watchers) and tests.
    public let pointer: OpaquePointer

    private init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// Takes over the caller's reference to a `GDBusConnection *` (from
    /// `g_bus_get_finish`, say): released with this object.
    public static func adopting(_ pointer: OpaquePointer) -> BusConnection { BusConnection(taking: pointer) }

    /// The process's shared session-bus connection (what libnotify and
    /// libsecret use too).
    public static func session() throws(Failure) -> BusConnection {
        var error: UnsafeMutablePointer<GError>?
        guard let pointer = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw Failure(description: "cannot connect to the session bus: \(GErrorText.take(error))")
        }
        return BusConnection(taking: pointer)
    }

    /// Closes the connection (its names are released by the bus).
    public func close() {
        g_dbus_connection_close_sync(pointer, nil, nil)
    }

    public var isClosed: Bool { g_dbus_connection_is_closed(pointer) != 0 }

    /// This connection's unique name (`:1.42`).
    public var uniqueName: String {
        g_dbus_connection_get_unique_name(pointer).map { String(cString: $0) } ?? ""
    }
}
