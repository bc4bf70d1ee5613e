import FoundationEssentials
import RelavoiCore

/// One text frame of the Relavoi stream, decoded.
public enum StreamFrame: Equatable, Sendable {
    /// The server's welcome: only after it is the stream live.
    case connected(tenantId: String?, at: Date?)
    /// The answer to a client text `ping`.
    case pong
    /// An event; `id` is the stream entry id, nil when absent or empty.
    case event(RelavoiEvent, id: String?)
}
