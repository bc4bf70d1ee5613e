import RelavoiClient

/// A failed control call; becomes a D-Bus error reply.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An argument is out of shape; the message names it.
    case invalidArgument(String)
    /// No banner for this session id.
    case unknownSession(String)
    /// The agent could not carry the call out (for example, banners are off).
    case failed(String)

    /// The D-Bus error name of the reply.
    public var dbusErrorName: String {
        switch self {
        case .invalidArgument: return AgentBus.errorInvalidArgument
        case .unknownSession: return AgentBus.errorUnknownSession
        case .failed: return AgentBus.errorFailed
        }
    }

    /// The human-readable text of the reply.
    public var message: String {
        switch self {
        case .invalidArgument(let what): return what
        case .unknownSession(let id): return "no banner for session \"\(id)\""
        case .failed(let why): return why
        }
    }

    public var description: String { "\(dbusErrorName): \(message)" }
}
