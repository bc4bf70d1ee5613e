import Foundation
import RelavoiCore

/// The tenant's sessions, in insertion order (the order `GET /sessions` pages through).
struct SessionStore {
    private var entries: [String: (seq: Int, session: SandboxSession)] = [:]
    private var nextSeq = 1

    var all: [SandboxSession] { ordered.map(\.item) }

    private var ordered: [(seq: Int, item: SandboxSession)] {
        entries.values.sorted { $0.seq < $1.seq }.map { (seq: $0.seq, item: $0.session) }
    }

    subscript(id: String) -> SandboxSession? { entries[id]?.session }

    /// Inserts, or replaces in place (keeping its position in listings).
    mutating func upsert(_ session: SandboxSession) {
        if let existing = entries[session.id] {
            entries[session.id] = (existing.seq, session)
        } else {
            entries[session.id] = (nextSeq, session)
            nextSeq += 1
        }
    }

    mutating func update(_ id: String, _ change: (inout SandboxSession) -> Void) {
        guard var entry = entries[id] else { return }
        change(&entry.session)
        entries[id] = entry
    }

    @discardableResult
    mutating func remove(_ id: String) -> SandboxSession? { entries.removeValue(forKey: id)?.session }

    func list(tenant: String, state: String?, limit: Int, after: String?) throws(Pagination.Failure)
        -> Page<SandboxSession>
    {
        let matching = ordered.filter { $0.item.tenantId == tenant && (state == nil || $0.item.state == state) }
        return try Pagination.page(matching, limit: limit, after: after, ascending: true)
    }

    /// The session that verifies `phone`: it lists the phone, is ACTIVE or
    /// GRACE_PERIOD and, when `window` is set, had a call within `window`
    /// seconds of `now`. The most recent call wins when several qualify.
    func verifying(phone: String, tenant: String, now: Date, window: TimeInterval?) -> SandboxSession? {
        all.filter { session in
            guard session.tenantId == tenant, session.userPhones.contains(phone),
                session.state == "ACTIVE" || session.state == "GRACE_PERIOD"
            else { return false }
            guard let window else { return true }
            guard let last = session.lastCallAt else { return false }
            return now.timeIntervalSince(last) <= window && last.timeIntervalSince(now) <= 5
        }
        .max { ($0.lastCallAt ?? .distantPast) < ($1.lastCallAt ?? .distantPast) }
    }
}
