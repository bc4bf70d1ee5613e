import FoundationEssentials

/// Which calls get a banner: the calls the agent follows, at most
/// `maxBanners` of them shown, the rest counted in one summary notification.
/// Pure; returns what to do. Every operation is O(1) amortized: a busy
/// tenant's stream must not cost a scan of every followed call per event.
public struct CallBook: Sendable {
    public enum Phase: Equatable, Sendable {
        case ringing
        case active(startedAt: Date)
    }

    public enum Slot: Equatable, Hashable, Sendable {
        case shown
        /// Waiting for a free banner; counted in the summary.
        case overflow
        /// The user dismissed its banner: followed to its end, never shown again.
        case dismissed
    }

    public struct Call: Equatable, Sendable {
        public var phase: Phase
        public var slot: Slot
        /// Order of arrival, for promotion out of the overflow.
        var sequence: Int
    }

    public enum Action: Equatable, Sendable {
        /// Show the call's banner, or move it to its new phase.
        case showBanner(sessionId: String, phase: Phase)
        /// The call is over: its banner ends.
        case endBanner(sessionId: String)
        /// The summary notification counts this many calls without a banner (0: close it).
        case summary(count: Int)
        /// The book was full: this call (overflow or dismissed, the oldest) is no longer followed.
        case forgot(sessionId: String)
    }

    public let maxBanners: Int
    /// Calls followed at most; the oldest overflow (then dismissed) ones go first when full.
    public let capacity: Int
    public private(set) var calls: [String: Call] = [:]
    private var nextSequence = 0
    private var counts: [Slot: Int] = [:]
    /// The calls in the book by phase, whatever their slot (kept as they change: no scan).
    public private(set) var phaseCounts = CallPhaseCounts()
    /// Arrival order per slot, oldest first; entries whose call left the slot
    /// are skipped when met (lazy deletion) and compacted now and then.
    private var queues: [Slot: OrderQueue] = [.overflow: OrderQueue(), .dismissed: OrderQueue()]

    public init(maxBanners: Int, capacity: Int = 4096) {
        self.maxBanners = max(1, maxBanners)
        self.capacity = max(self.maxBanners, capacity)
    }

    public var shownCount: Int { counts[.shown, default: 0] }
    /// Entries in the arrival-order queues, stale ones included.
    var orderLogCount: Int { queues.values.map(\.count).reduce(0, +) }
    public var overflowCount: Int { counts[.overflow, default: 0] }

    /// A call rang or was answered.
    public mutating func callChanged(_ sessionId: String, phase: Phase) -> [Action] {
        if var call = calls[sessionId] {
            phaseCounts.add(call.phase, -1)
            phaseCounts.add(phase, 1)
            call.phase = phase
            calls[sessionId] = call
            return call.slot == .shown ? [.showBanner(sessionId: sessionId, phase: phase)] : []
        }
        var forgotten: [Action] = []
        if calls.count >= capacity, let oldest = popOldest(.overflow) ?? popOldest(.dismissed) {
            remove(oldest)
            forgotten.append(.forgot(sessionId: oldest))
        }
        let slot: Slot = shownCount < maxBanners ? .shown : .overflow
        insert(sessionId, Call(phase: phase, slot: slot, sequence: nextSequence))
        nextSequence += 1
        if slot == .shown {
            let summary: [Action] = forgotten.isEmpty ? [] : [.summary(count: overflowCount)]
            return forgotten + [.showBanner(sessionId: sessionId, phase: phase)] + summary
        }
        return forgotten + [.summary(count: overflowCount)]
    }

    /// A call ended, failed or its session expired; an overflow call takes its place.
    public mutating func callFinished(_ sessionId: String) -> [Action] {
        guard let call = remove(sessionId) else { return [] }
        switch call.slot {
        case .shown: return [.endBanner(sessionId: sessionId)] + promote()
        case .overflow: return [.summary(count: overflowCount)]
        case .dismissed: return []
        }
    }

    /// The user dismissed the banner: the call stays followed but gives up its slot.
    public mutating func bannerDismissed(_ sessionId: String) -> [Action] {
        guard calls[sessionId]?.slot == .shown else { return [] }
        move(sessionId, to: .dismissed)
        return promote()
    }

    private mutating func promote() -> [Action] {
        guard shownCount < maxBanners, let next = popOldest(.overflow), let call = calls[next] else { return [] }
        move(next, to: .shown)
        return [.showBanner(sessionId: next, phase: call.phase), .summary(count: overflowCount)]
    }

    // MARK: - Bookkeeping

    private mutating func insert(_ sessionId: String, _ call: Call) {
        calls[sessionId] = call
        counts[call.slot, default: 0] += 1
        phaseCounts.add(call.phase, 1)
        enqueue(sessionId, call)
    }

    @discardableResult
    private mutating func remove(_ sessionId: String) -> Call? {
        guard let call = calls.removeValue(forKey: sessionId) else { return nil }
        counts[call.slot, default: 0] -= 1
        phaseCounts.add(call.phase, -1)
        return call
    }

    private mutating func move(_ sessionId: String, to slot: Slot) {
        guard var call = calls[sessionId] else { return }
        counts[call.slot, default: 0] -= 1
        call.slot = slot
        calls[sessionId] = call
        counts[slot, default: 0] += 1
        enqueue(sessionId, call)
    }

    /// The dismissed queue is popped only when the book is full, so the
    /// entries of calls that ended stayed in it for good: once stale ones
    /// outnumber the calls in the slot, they go.
    private mutating func enqueue(_ sessionId: String, _ call: Call) {
        let slot = call.slot
        queues[slot]?.append(sessionId, sequence: call.sequence)
        guard let length = queues[slot]?.count, length > 2 * max(64, counts[slot, default: 0]) else { return }
        let calls = calls
        queues[slot]?.keep { calls[$0]?.slot == slot && calls[$0]?.sequence == $1 }
    }

    /// The oldest call still in `slot`, taken off its queue.
    private mutating func popOldest(_ slot: Slot) -> String? {
        while let (sessionId, sequence) = queues[slot]?.popFirst() {
            if let call = calls[sessionId], call.slot == slot, call.sequence == sequence { return sessionId }
        }
        return nil
    }
}

/// A FIFO of (session, sequence) with O(1) amortized append and pop.
private struct OrderQueue: Sendable {
    private var items: [(String, Int)] = []
    private var head = 0

    var count: Int { items.count - head }

    mutating func append(_ sessionId: String, sequence: Int) { items.append((sessionId, sequence)) }

    /// Keeps the entries still current, in order, in the same buffer.
    mutating func keep(_ isCurrent: (String, Int) -> Bool) {
        items.removeSubrange(..<head)
        head = 0
        items.removeAll { !isCurrent($0.0, $0.1) }
    }

    mutating func popFirst() -> (String, Int)? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
