import FoundationEssentials

/// Deadlines in the order they were set (each kind has one fixed delay, so
/// that is time order), with lazy deletion: an entry whose token is no longer
/// current is skipped when met. O(1) amortized.
struct DeadlineQueue: Sendable {
    private var items: [(sessionId: String, token: Int, at: Date)] = []
    private var head = 0

    mutating func append(_ sessionId: String, token: Int, at: Date) {
        items.append((sessionId, token, at))
    }

    /// The first entry due at `now`, taken off.
    mutating func popDue(now: Date) -> (String, Int)? {
        guard head < items.count, items[head].at <= now else { return nil }
        let item = items[head]
        head += 1
        compact()
        return (item.sessionId, item.token)
    }

    /// The earliest current deadline; drops stale entries in front.
    mutating func front(isCurrent: (String, Int) -> Bool) -> Date? {
        while head < items.count, !isCurrent(items[head].sessionId, items[head].token) {
            head += 1
        }
        compact()
        return head < items.count ? items[head].at : nil
    }

    var count: Int { items.count - head }

    private mutating func compact() {
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 256, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
