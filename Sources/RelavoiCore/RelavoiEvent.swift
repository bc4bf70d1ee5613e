import FoundationEssentials

/// One event of the Relavoi stream, exactly the iOS SDK's cases.
public enum RelavoiEvent: Equatable, Sendable {
    case sessionCreated(sessionId: String, proxyNumber: String, ts: Date)
    case sessionActivated(sessionId: String, ts: Date)
    case sessionExpired(sessionId: String, ts: Date)
    case callIncoming(sessionId: String, callerNumber: String, ts: Date)
    case callAnswered(sessionId: String, ts: Date)
    case callEnded(sessionId: String, durationSeconds: Int, ts: Date)
    case smsReceived(sessionId: String, ts: Date)
    /// Any other type; `payload` is the whole frame as received.
    case unknown(type: String, payload: JSONValue)
}
