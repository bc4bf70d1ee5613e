/// A table of at most `capacity` entries: a new key, when it is full, drops
/// the entry added longest ago (insertion order; updating a key keeps its
/// place). O(1) amortised per change; lookups are one dictionary read.
struct OldestFirstTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private var slots: [Key: (value: Value, generation: Int)] = [:]
    /// Insertion order, oldest first from `head`, with lazy deletion: an
    /// entry whose generation is not its key's current one (removed, maybe
    /// added again since) is skipped, so it never evicts a live entry.
    private var order: [(key: Key, generation: Int)] = []
    private var head = 0
    private var nextGeneration = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots.reserveCapacity(self.capacity)
    }

    var count: Int { slots.count }

    /// Entries in the order log, stale ones included (bounded by twice the capacity).
    var orderLogCount: Int { order.count }
    /// Entries the log's buffer holds without growing.
    var orderLogCapacity: Int { order.capacity }

    subscript(key: Key) -> Value? {
        get { slots[key]?.value }
        set {
            guard let newValue else {
                slots[key] = nil
                return
            }
            if let index = slots.index(forKey: key) {
                slots.values[index].value = newValue
                return
            }
            evictIfFull()
            nextGeneration += 1
            slots[key] = (newValue, nextGeneration)
            order.append((key, nextGeneration))
            compactIfLong()
        }
    }

    private mutating func evictIfFull() {
        while slots.count >= capacity, head < order.count {
            let (oldest, generation) = order[head]
            head += 1
            if slots[oldest]?.generation == generation { slots[oldest] = nil }
        }
    }

    /// Drops the consumed and stale part of the log once it is twice the
    /// capacity; it is then at most `capacity` long, so this runs at most
    /// once per `capacity` insertions. In place: the log keeps its buffer, as
    /// a new one each time would leave holes in the heap for good.
    private mutating func compactIfLong() {
        guard order.count >= 2 * capacity else { return }
        order.removeSubrange(..<head)
        head = 0
        let slots = slots
        order.removeAll { slots[$0.key]?.generation != $0.generation }
    }
}
