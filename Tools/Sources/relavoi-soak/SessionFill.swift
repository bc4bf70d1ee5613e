/// Sessions without calls, at a steady rate through the mix: each is created
/// and expires `lifetime` seconds later. The stream carries every session of
/// the tenant, so these fill the agent's bounded caches (the session
/// directory, the event-id dedupe) early in the run, and then keep them
/// turning over at the same rate: what stays in them no longer changes.
struct SessionFill {
    let rate: Double
    let lifetime: Double
    /// Sessions created so far.
    private(set) var created = 0
    private var nextAt: Double
    /// Created and not yet expired, oldest first from `head`.
    private var living: [(expiresAt: Double, sessionId: String)] = []
    private var head = 0

    init(rate: Double, lifetime: Double = 10, start: Double) {
        self.rate = rate
        self.lifetime = lifetime
        nextAt = start
    }

    /// What is due at `now`: sessions to create (none from `stop` on) and sessions to expire.
    mutating func due(now: Double, stop: Double) -> (created: [String], expired: [String]) {
        var new: [String] = []
        while rate > 0, nextAt <= now, nextAt < stop {
            created += 1
            let sessionId = SoakIdentifier.make("soak_quiet_", created)
            new.append(sessionId)
            living.append((nextAt + lifetime, sessionId))
            nextAt += 1 / rate
        }
        var expired: [String] = []
        while head < living.count, living[head].expiresAt <= now {
            expired.append(living[head].sessionId)
            head += 1
        }
        if head > 1024, head * 2 > living.count {
            living.removeFirst(head)
            head = 0
        }
        return (new, expired)
    }

    /// Every session still living, to expire now (the drain).
    mutating func expireAll() -> [String] {
        defer {
            living.removeAll()
            head = 0
        }
        return living[head...].map(\.sessionId)
    }
}
