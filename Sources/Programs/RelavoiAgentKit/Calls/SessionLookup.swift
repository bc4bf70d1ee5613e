import RelavoiCore

/// The REST calls the agent makes about sessions. Failures are nil: the
/// caller then shows Unverified or keeps what it has.
@MainActor
public protocol SessionLookup: AnyObject {
    /// `GET /sessions/{id}`.
    func session(_ sessionId: String) async -> JSONValue?
    /// `GET /sessions/verify?userPhone=...`.
    func verify(userPhone: String) async -> JSONValue?
    /// Ids of every ACTIVE and GRACE_PERIOD session (all pages); nil when any request failed.
    func liveSessionIds() async -> Set<String>?
}
