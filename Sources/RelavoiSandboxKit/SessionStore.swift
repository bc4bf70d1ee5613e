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

/// Call records, newest (most recently created) first.
struct CallStore {
    struct Filter {
        var tenant: String
        var sessionId: String?
        var status: String?
        var periodStart: Date?
        var periodEnd: Date?
    }

    private var entries: [String: (seq: Int, call: SandboxCall)] = [:]
    private var nextSeq = 1

    var all: [SandboxCall] { newestFirst.map(\.item) }

    private var newestFirst: [(seq: Int, item: SandboxCall)] {
        entries.values.sorted { $0.seq > $1.seq }.map { (seq: $0.seq, item: $0.call) }
    }

    subscript(id: String) -> SandboxCall? { entries[id]?.call }

    /// A fresh id, `call-N`.
    mutating func makeID() -> String {
        var id = "call-\(nextSeq)"
        while entries[id] != nil { id += "x" }
        return id
    }

    mutating func upsert(_ call: SandboxCall) {
        if let existing = entries[call.id] {
            entries[call.id] = (existing.seq, call)
        } else {
            entries[call.id] = (nextSeq, call)
            nextSeq += 1
        }
    }

    /// The session's newest call that is still ringing or answered.
    func openCall(sessionId: String, cpaasCallId: String?) -> SandboxCall? {
        let open = newestFirst.map(\.item).filter { $0.sessionId == sessionId && $0.isOpen }
        if let cpaasCallId, let match = open.first(where: { $0.cpaasCallId == cpaasCallId }) { return match }
        return open.first
    }

    func list(_ filter: Filter, limit: Int, after: String?) throws(Pagination.Failure) -> Page<SandboxCall> {
        let matching = newestFirst.filter { entry in
            let call = entry.item
            return call.tenantId == filter.tenant
                && (filter.sessionId == nil || call.sessionId == filter.sessionId)
                && (filter.status == nil || call.status == filter.status)
                && (filter.periodStart.map { call.initiatedAt >= $0 } ?? true)
                && (filter.periodEnd.map { call.initiatedAt <= $0 } ?? true)
        }
        return try Pagination.page(matching, limit: limit, after: after, ascending: false)
    }
}
