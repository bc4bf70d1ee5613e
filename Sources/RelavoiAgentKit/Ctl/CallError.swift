import CGLib
import RelavoiI18n

/// A failed D-Bus call: the remote error name (if the agent or the bus sent
/// one) and the message.
struct CallError: Error, CustomStringConvertible {
    var name: String?
    var message: String

    var description: String {
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return L("the agent is not running and D-Bus could not start it (%s)", TerminalText.safe(message))
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            return L("the agent did not answer in time (%s)", TerminalText.safe(message))
        case let name?:
            return "\(TerminalText.safe(message)) [\(TerminalText.safe(name, limit: 255))]"
        case nil:
            return TerminalText.safe(message)
        }
    }
}

extension CallError {
    /// Reads and frees a GDBus error.
    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            self.init(name: nil, message: L("the call failed"))
            return
        }
        defer { g_error_free(error) }
        var name: String?
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
        }
        g_dbus_error_strip_remote_error(error)
        self.init(name: name, message: error.pointee.message.map { String(cString: $0) } ?? L("the call failed"))
    }
}
