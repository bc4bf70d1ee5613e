import FoundationEssentials

/// What the agent knows of a tenant's sessions, bounded: the stream carries
/// every session of the tenant, so the oldest entries go when it is full.
/// A cache: a followed call keeps its own copy of what it shows.
public struct SessionDirectory: Sendable {
    public struct Entry: Equatable, Sendable {
        public var proxyNumber: String?
        /// From `GET /sessions/{id}`, once fetched.
        public var details: SessionDetails?
        /// When the session's last call ended, by the event's own time: a
        /// late `call.answered` for that call (reordered frames) is stale.
        public var callEndedAt: Date?
        /// The input sequence number of the last end seen (see `CallMachine.reconcileBegan`).
        public var endSequence: Int = 0
    }

    public var capacity: Int { entries.capacity }
    private var entries: OldestFirstTable<String, Entry>

    public init(capacity: Int = 4096) {
        entries = OldestFirstTable(capacity: capacity)
    }

    public var count: Int { entries.count }

    public subscript(sessionId: String) -> Entry? { entries[sessionId] }

    public mutating func rememberProxy(_ proxyNumber: String, for sessionId: String) {
        modify(sessionId) { $0.proxyNumber = proxyNumber }
    }

    public mutating func rememberDetails(_ details: SessionDetails, for sessionId: String) {
        modify(sessionId) {
            if let proxyNumber = details.proxyNumber { $0.proxyNumber = proxyNumber }
            $0.details = details
        }
    }

    /// A call of the session ended (`time` nil: no event time to compare).
    public mutating func rememberCallEnded(at time: Date?, sequence: Int, for sessionId: String) {
        modify(sessionId) {
            if let time { $0.callEndedAt = max(time, $0.callEndedAt ?? time) }
            $0.endSequence = sequence
        }
    }

    public mutating func forget(_ sessionId: String) {
        entries[sessionId] = nil
    }

    private mutating func modify(_ sessionId: String, _ change: (inout Entry) -> Void) {
        var entry = entries[sessionId] ?? Entry()
        change(&entry)
        entries[sessionId] = entry
    }
}
