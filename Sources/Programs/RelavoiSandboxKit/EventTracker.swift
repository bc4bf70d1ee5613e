import Foundation
import RelavoiCore

/// Keeps sessions and call records in step with the events the sandbox
/// sends, so REST answers what a client reconciling after a gap expects.
/// Events name their session by `sessionId`; times are the server's `now`.
extension SandboxState {
    mutating func track(type: String, fields: [String: JSONValue], now: Date) {
        guard options.trackEvents, let sessionId = fields["sessionId"]?.stringValue else { return }
        let cpaasId = fields["cpaasSessionId"]?.stringValue ?? fields["cpaasCallId"]?.stringValue
        switch type {
        case "session.created":
            if sessions[sessionId] == nil {
                upsert(
                    SandboxSession(
                        id: sessionId, proxyNumber: fields["proxyNumber"]?.stringValue ?? "",
                        directionMode: fields["directionMode"]?.stringValue ?? "BIDIRECTIONAL",
                        recordingEnabled: fields["recordingEnabled"] == .bool(true), createdAt: now))
            } else if let proxy = fields["proxyNumber"]?.stringValue {
                sessions.update(sessionId) { $0.proxyNumber = proxy }
            }
        case "session.activated":
            sessions.update(sessionId) {
                $0.state = "ACTIVE"
                $0.activatedAt = $0.activatedAt ?? now
            }
        case "session.expired":
            sessions.update(sessionId) {
                $0.state = "EXPIRED"
                $0.endedAt = $0.endedAt ?? now
            }
        case "call.incoming":
            sessions.update(sessionId) {
                $0.callCount += 1
                $0.lastCallAt = now
            }
            let direction = fields["direction"]?.stringValue ?? "A_TO_B"
            upsert(
                SandboxCall(
                    id: calls.makeID(), sessionId: sessionId, direction: direction, initiatedAt: now,
                    cpaasCallId: cpaasId, tenantId: sessions[sessionId]?.tenantId))
        case "call.answered", "call.ended", "call.missed", "call.failed":
            sessions.update(sessionId) { $0.lastCallAt = now }
            var call =
                calls.openCall(sessionId: sessionId, cpaasCallId: cpaasId)
                ?? SandboxCall(
                    id: calls.makeID(), sessionId: sessionId, initiatedAt: now, cpaasCallId: cpaasId,
                    tenantId: sessions[sessionId]?.tenantId)
            if call.cpaasCallId == nil { call.cpaasCallId = cpaasId }
            finish(&call, type: type, fields: fields, now: now)
            upsert(call)
        default:
            break
        }
    }

    private func finish(_ call: inout SandboxCall, type: String, fields: [String: JSONValue], now: Date) {
        switch type {
        case "call.answered":
            call.status = "ANSWERED"
            call.answeredAt = now
        case "call.ended":
            call.endedAt = now
            if case .int(let seconds) = fields["durationSeconds"] {
                call.durationSeconds = seconds
            } else if let answered = call.answeredAt {
                call.durationSeconds = Int(now.timeIntervalSince(answered).rounded())
            }
            call.status = call.answeredAt == nil && call.durationSeconds == nil ? "MISSED" : "COMPLETED"
        case "call.missed":
            call.status = "MISSED"
            call.endedAt = now
        default:
            call.status = "FAILED"
            call.endedAt = now
        }
    }
}
