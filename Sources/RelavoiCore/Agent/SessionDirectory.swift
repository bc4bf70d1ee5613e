import Foundation

/// What the agent knows of a tenant's sessions, bounded: the stream carries
/// every session of the tenant, so the oldest entries go when it is full.
public struct SessionDirectory: Sendable {
    public struct Entry: Equatable, Sendable {
        public var proxyNumber: String?
        /// From the session's metadata, once fetched.
        public var label: String?
        public var verified: Bool?
        /// When the session's last call ended, by the event's own time: a
        /// late `call.answered` for that call (reordered frames) is stale.
        public var callEndedAt: Date?
    }

    public let capacity: Int
    private var entries: [String: Entry] = [:]
    /// Insertion order for eviction; stale ids (re-inserted later) are skipped.
    private var order: [String] = []
    private var orderStart = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    public var count: Int { entries.count }

    public subscript(sessionId: String) -> Entry? { entries[sessionId] }

    public mutating func rememberProxy(_ proxyNumber: String, for sessionId: String) {
        modify(sessionId) { $0.proxyNumber = proxyNumber }
    }

    public mutating func rememberDetails(proxyNumber: String?, label: String?, verified: Bool, for sessionId: String) {
        modify(sessionId) {
            if let proxyNumber { $0.proxyNumber = proxyNumber }
            $0.label = label
            $0.verified = verified
        }
    }

    public mutating func rememberCallEnded(at time: Date, for sessionId: String) {
        modify(sessionId) { $0.callEndedAt = max(time, $0.callEndedAt ?? time) }
    }

    public mutating func forget(_ sessionId: String) {
        entries[sessionId] = nil
    }

    private mutating func modify(_ sessionId: String, _ change: (inout Entry) -> Void) {
        if var entry = entries[sessionId] {
            change(&entry)
            entries[sessionId] = entry
            return
        }
        var entry = Entry()
        change(&entry)
        evictIfFull()
        entries[sessionId] = entry
        order.append(sessionId)
    }

    private mutating func evictIfFull() {
        while entries.count >= capacity, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            entries[oldest] = nil
        }
        // Compact the order log so it stays proportional to the capacity.
        if orderStart > capacity {
            order.removeFirst(orderStart)
            orderStart = 0
            order.removeAll { entries[$0] == nil }
        }
    }
}
