import Foundation
import RelavoiCore

/// Everything the sandbox knows, as plain values: tokens, rate limits,
/// sessions, call records and counters. No C, no I/O; time is passed in.
struct SandboxState {
    var options: SandboxServer.Options
    var tokens = TokenIssuer()
    var rateLimiter: RateLimiter
    var sessions = SessionStore()
    var calls = CallStore()
    var tokenRequestCount = 0
    var restRequestCount = 0
    private var eventIDs = EventIDGenerator()

    init(options: SandboxServer.Options) {
        self.options = options
        self.rateLimiter = RateLimiter(limit: options.tokenRateLimitPerMinute)
    }

    mutating func upsert(_ session: SandboxSession) {
        var session = session
        if (session.tenantId ?? "").isEmpty { session.tenantId = options.tenantId }
        sessions.upsert(session)
    }

    mutating func upsert(_ call: SandboxCall) {
        var call = call
        if (call.tenantId ?? "").isEmpty { call.tenantId = options.tenantId }
        calls.upsert(call)
    }

    mutating func nextEventID(now: Date) -> String { eventIDs.next(now: now) }
}
