import RelavoiCore
import RelavoiMachines

/// Where the agent learns which calls are in progress after a gap in the stream.
@MainActor
public protocol CallsInProgressSource: AnyObject {
    /// Every answered call (all pages); nil when a request failed.
    func answeredCalls() async -> [CallsInProgress.Call]?
    /// Whether the session is ACTIVE or in its GRACE_PERIOD; false when unknown.
    func isLive(sessionId: String) async -> Bool
}
