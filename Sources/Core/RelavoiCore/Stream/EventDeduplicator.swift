/// Remembers the last `capacity` event ids so a re-sent event is delivered
/// once. Memory is bounded: the oldest id is forgotten when a new one comes.
public struct EventDeduplicator: Sendable {
    public let capacity: Int
    private var ring: [String] = []
    private var next = 0
    private var seen: Set<String> = []

    /// How many recent ids are remembered unless configured otherwise.
    public static let defaultCapacity = 4096

    public init(capacity: Int = EventDeduplicator.defaultCapacity) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        seen.reserveCapacity(capacity)
        ring.reserveCapacity(capacity)
    }

    /// True the first time an id is offered (and records it); false for a
    /// repeat. Events without an id (nil or empty) are always delivered.
    public mutating func shouldDeliver(id: String?) -> Bool {
        guard let id, !id.isEmpty else { return true }
        guard seen.insert(id).inserted else { return false }
        if ring.count < capacity {
            ring.append(id)
        } else {
            seen.remove(ring[next])
            ring[next] = id
        }
        next = (next + 1) % capacity
        return true
    }

    public var count: Int { seen.count }

    public mutating func removeAll() {
        ring.removeAll(keepingCapacity: true)
        seen.removeAll(keepingCapacity: true)
        next = 0
    }
}
