import FoundationEssentials
import RelavoiCore

/// Calls in progress as `GET /calls?status=ANSWERED` lists them, and what
/// the agent should make of them after a gap in the stream (sleep, network
/// loss: the server has no replay). Pure.
public enum CallsInProgress {
    /// One answered call: its session and when it was answered.
    public struct Call: Equatable, Sendable {
        public var sessionId: String
        public var answeredAt: Date

        public init(sessionId: String, answeredAt: Date) {
            self.sessionId = sessionId
            self.answeredAt = answeredAt
        }
    }

    /// One page of `{"data": [...], "pagination": {"after": ...}}`: the
    /// answered calls with a session id and a readable `answeredAt` (others
    /// are skipped), and the next cursor. nil when the body is not a page.
    public static func page(_ json: JSONValue) -> (calls: [Call], next: String?)? {
        guard case .array(let items) = json["data"] ?? .null else { return nil }
        let calls = items.compactMap { item -> Call? in
            guard item["status"]?.stringValue == "ANSWERED",
                let sessionId = item["sessionId"]?.stringValue, !sessionId.isEmpty,
                let answered = item["answeredAt"]?.stringValue.flatMap(ISO8601Timestamp.parse)
            else { return nil }
            return Call(sessionId: sessionId, answeredAt: answered)
        }
        return (calls, json["pagination"]?["after"]?.stringValue)
    }

    /// What to do with a complete listing, given the calls the agent follows
    /// as answered (session id → the start its banner counts from).
    public struct Plan: Equatable, Sendable {
        /// Answered on the server: show or correct the banner from this start.
        public var answered: [Call]
        /// Shown as answered here, no longer answered on the server: ended while the stream was down.
        public var ended: [String]
    }

    /// - Parameters:
    ///   - listed: every answered call of the listing (several per session: the latest answer wins).
    ///   - followed: the agent's answered calls when the listing was asked for.
    ///   - now: calls answered longer ago than `maximumAge` (stale records) are left out.
    public static func plan(
        listed: [Call], followed: [String: Date], now: Date, maximumAge: TimeInterval = BannerLimits.maximumActive
    ) -> Plan {
        var latest: [String: Date] = [:]
        for call in listed where now.timeIntervalSince(call.answeredAt) < maximumAge {
            latest[call.sessionId] = max(latest[call.sessionId] ?? call.answeredAt, call.answeredAt)
        }
        let answered = latest.keys.sorted().compactMap { sessionId -> Call? in
            let answeredAt = latest[sessionId]!
            // Already shown from the same start: nothing to correct.
            if let shown = followed[sessionId], abs(shown.timeIntervalSince(answeredAt)) < 1 { return nil }
            return Call(sessionId: sessionId, answeredAt: answeredAt)
        }
        let ended = followed.keys.filter { latest[$0] == nil }.sorted()
        return Plan(answered: answered, ended: ended)
    }
}
