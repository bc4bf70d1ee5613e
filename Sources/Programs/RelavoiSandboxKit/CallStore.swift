import Foundation
import RelavoiCore

/// Call records, listed newest (most recently created) first. Finding a
/// session's open call is O(calls open on that session), so event floods stay
/// linear; at most `capacity` records are kept (the oldest go first).
struct CallStore {
    struct Filter {
        var tenant: String
        var sessionId: String?
        var status: String?
        var periodStart: Date?
        var periodEnd: Date?
    }

    var capacity = 10_000
    private var entries: [String: (seq: Int, call: SandboxCall)] = [:]
    /// Ids in creation order, oldest first; may hold ids since removed.
    private var creationOrder: [String] = []
    private var creationHead = 0
    /// Per session, the ids of its ringing or answered calls, oldest first.
    private var openBySession: [String: [String]] = [:]
    private var nextSeq = 1

    var count: Int { entries.count }

    var all: [SandboxCall] { newestFirst.map(\.item) }

    private var newestFirst: [(seq: Int, item: SandboxCall)] {
        entries.values.sorted { $0.seq > $1.seq }.map { (seq: $0.seq, item: $0.call) }
    }

    subscript(id: String) -> SandboxCall? { entries[id]?.call }

    /// A fresh id, `call-N`.
    func makeID() -> String {
        var id = "call-\(nextSeq)"
        while entries[id] != nil { id += "x" }
        return id
    }

    mutating func upsert(_ call: SandboxCall) {
        if let existing = entries[call.id] {
            closeIndex(existing.call)
            entries[call.id] = (existing.seq, call)
        } else {
            entries[call.id] = (nextSeq, call)
            nextSeq += 1
            creationOrder.append(call.id)
        }
        if call.isOpen { openBySession[call.sessionId, default: []].append(call.id) }
        evictBeyondCapacity()
    }

    /// The session's newest call that is still ringing or answered (the one
    /// with `cpaasCallId`, if given and open).
    func openCall(sessionId: String, cpaasCallId: String?) -> SandboxCall? {
        let open = (openBySession[sessionId] ?? []).compactMap { entries[$0]?.call }
        if let cpaasCallId, let match = open.last(where: { $0.cpaasCallId == cpaasCallId }) { return match }
        return open.last
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

    private mutating func closeIndex(_ call: SandboxCall) {
        guard var ids = openBySession[call.sessionId], let index = ids.firstIndex(of: call.id) else { return }
        ids.remove(at: index)
        openBySession[call.sessionId] = ids.isEmpty ? nil : ids
    }

    private mutating func evictBeyondCapacity() {
        while entries.count > max(1, capacity), creationHead < creationOrder.count {
            let id = creationOrder[creationHead]
            creationHead += 1
            if let old = entries.removeValue(forKey: id) { closeIndex(old.call) }
        }
        if creationHead > 4096, creationHead * 2 > creationOrder.count {
            creationOrder.removeFirst(creationHead)
            creationHead = 0
        }
    }
}
