import CGLib

/// A failed D-Bus call: the remote error name (if the peer or the bus sent
/// one) and the message, without GDBus's "GDBus.Error:name:" prefix.
public struct DBusCallError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String?
    /// Nil when GDBus gave no message.
    public var message: String?

    public init(name: String?, message: String?) {
        self.name = name
        self.message = message
    }

    /// Reads and frees a GDBus error (nil: a failure GDBus did not describe).
    public init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            self.init(name: nil, message: nil)
            return
        }
        defer { g_error_free(error) }
        var name: String?
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
        }
        g_dbus_error_strip_remote_error(error)
        self.init(name: name, message: error.pointee.message.map { String(cString: $0) })
    }

    public var description: String {
        let text = message ?? "the call failed"
        return name.map { "\(text) [\($0)]" } ?? text
    }
}
