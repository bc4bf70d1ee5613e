import RelavoiDBus
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
    init(_ failure: DBusCallError) {
        self.init(name: failure.name, message: failure.message ?? L("the call failed"))
    }
}
