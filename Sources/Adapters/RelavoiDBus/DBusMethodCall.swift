import CGLib
import RelavoiGLib

/// One method call to an `ExportedObject`, answered exactly once: by
/// `reply`, by `fail`, or (a bug in the handler) with a Failed error when it goes.
@MainActor
public final class DBusMethodCall {
    public let method: String
    /// The arguments' tuple type, `"(sssb)"`: GDBus checked it against the XML.
    public let signature: String
    public let arguments: [DBusValue]
    /// The caller's unique name (`:1.42`); empty on a peer-to-peer connection.
    public let sender: String
    private var invocation: OpaquePointer?

    init(method: String, signature: String, arguments: [DBusValue], invocation: OpaquePointer) {
        self.method = method
        self.signature = signature
        self.arguments = arguments
        sender = g_dbus_method_invocation_get_sender(invocation).map { String(cString: $0) } ?? ""
        self.invocation = invocation
    }

    isolated deinit {
        if invocation != nil { fail("org.freedesktop.DBus.Error.Failed", "\(method) was not answered") }
    }

    /// Replies with these values (none: an empty reply).
    public func reply(_ values: [DBusValue] = []) {
        guard let invocation else { return }
        let body: OpaquePointer?
        do {
            body = try values.messageBody()
        } catch {
            Log.warning("D-Bus: cannot build the reply to \(method): \(error)")
            fail("org.freedesktop.DBus.Error.Failed", "the reply could not be built")
            return
        }
        self.invocation = nil
        g_dbus_method_invocation_return_value(invocation, body)
    }

    /// Replies with the D-Bus error `name`.
    public func fail(_ name: String, _ message: String) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }
}
