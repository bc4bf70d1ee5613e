import FoundationEssentials

/// One event of the Relavoi stream, exactly the iOS SDK's cases.
public enum RelavoiEvent: Equatable, Sendable {
    /// A session was created on `proxyNumber`; `ts` is the server's time of the event.
    case sessionCreated(sessionId: String, proxyNumber: String, ts: Date)
    /// The session became active: calls and SMS on its proxy number reach the parties.
    case sessionActivated(sessionId: String, ts: Date)
    /// The session ended; its proxy number no longer connects.
    case sessionExpired(sessionId: String, ts: Date)
    /// A call rings on the session's proxy number, from `callerNumber`.
    case callIncoming(sessionId: String, callerNumber: String, ts: Date)
    /// The call on the session was answered: the moment to start a Live Activity.
    case callAnswered(sessionId: String, ts: Date)
    /// The call ended after `durationSeconds` of talk (0 when it was not answered).
    case callEnded(sessionId: String, durationSeconds: Int, ts: Date)
    /// An SMS arrived on the session's proxy number.
    case smsReceived(sessionId: String, ts: Date)
    /// Any other type; `payload` is the whole frame as received.
    case unknown(type: String, payload: JSONValue)
}
