import Foundation
import RelavoiCore
import XCTest

@testable import RelavoiSandboxKit

/// The pure parts, with time passed in: no loop, no sockets.
final class SandboxStateTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func testCallLifecycleFromEvents() {
        var state = SandboxState(options: .init())
        state.upsert(SandboxSession(id: "s1", proxyNumber: "+15550100"))
        let s1: [String: JSONValue] = ["sessionId": .string("s1")]
        state.track(type: "call.incoming", fields: s1, now: t0)
        XCTAssertEqual(state.calls.all.map(\.status), ["RINGING"])
        state.track(type: "call.answered", fields: s1, now: t0 + 2)
        state.track(type: "call.ended", fields: s1, now: t0 + 12)
        let call = state.calls.all[0]
        XCTAssertEqual(call.status, "COMPLETED")
        XCTAssertEqual(call.durationSeconds, 10)
        XCTAssertEqual(call.answeredAt, t0 + 2)
        state.track(type: "call.incoming", fields: s1, now: t0 + 20)
        state.track(type: "call.ended", fields: s1, now: t0 + 25)
        XCTAssertEqual(state.calls.all.map(\.status), ["MISSED", "COMPLETED"], "never answered")
        XCTAssertEqual(state.sessions["s1"]?.callCount, 2)
        XCTAssertEqual(state.sessions["s1"]?.lastCallAt, t0 + 25)
        state.track(type: "session.expired", fields: s1, now: t0 + 30)
        XCTAssertEqual(state.sessions["s1"]?.state, "EXPIRED")
        state.track(
            type: "session.created", fields: ["sessionId": .string("s2"), "proxyNumber": .string("+1")], now: t0)
        XCTAssertEqual(state.sessions["s2"]?.tenantId, SandboxServer.Options.defaultTenantId)
    }

    func testTrackingCanBeTurnedOff() {
        var state = SandboxState(options: .init(trackEvents: false))
        state.track(
            type: "session.created", fields: ["sessionId": .string("s"), "proxyNumber": .string("+1")], now: t0)
        XCTAssertNil(state.sessions["s"])
    }

    func testCallStoreKeepsTheNewestUpToCapacity() {
        var store = CallStore()
        store.capacity = 3
        for n in 1...5 {
            store.upsert(SandboxCall(id: "c\(n)", sessionId: "s", tenantId: "t"))
        }
        XCTAssertEqual(store.all.map(\.id), ["c5", "c4", "c3"])
        XCTAssertEqual(store.openCall(sessionId: "s", cpaasCallId: nil)?.id, "c5")
        store.upsert(SandboxCall(id: "c5", sessionId: "s", status: "COMPLETED", tenantId: "t"))
        XCTAssertEqual(store.openCall(sessionId: "s", cpaasCallId: nil)?.id, "c4")
    }

    func testDescendingPagesAndCursorsSurviveInsertions() throws {
        var store = CallStore()
        for n in 1...5 { store.upsert(SandboxCall(id: "c\(n)", sessionId: "s", tenantId: "t")) }
        let filter = CallStore.Filter(tenant: "t")
        let first = try store.list(filter, limit: 2, after: nil)
        XCTAssertEqual(first.items.map(\.id), ["c5", "c4"])
        store.upsert(SandboxCall(id: "c6", sessionId: "s", tenantId: "t"))
        let second = try store.list(filter, limit: 2, after: first.after)
        XCTAssertEqual(second.items.map(\.id), ["c3", "c2"])
        let last = try store.list(filter, limit: 2, after: second.after)
        XCTAssertEqual(last.items.map(\.id), ["c1"])
        XCTAssertNil(last.after)
        XCTAssertThrowsError(try store.list(filter, limit: 2, after: "garbage"))
    }

    func testRateLimiterSlidesItsWindow() {
        var limiter = RateLimiter(limit: 2)
        XCTAssertNil(limiter.admit(key: "k", now: t0))
        XCTAssertNil(limiter.admit(key: "k", now: t0 + 10))
        XCTAssertEqual(limiter.admit(key: "k", now: t0 + 20), 40)
        XCTAssertNil(limiter.admit(key: "other", now: t0 + 20))
        XCTAssertNil(limiter.admit(key: "k", now: t0 + 60.5), "the first request left the window")
    }

    func testTokensExpireAndAreRevocable() {
        var issuer = TokenIssuer()
        let token = issuer.issue(tenantId: "t", lifetime: 60, now: t0)
        XCTAssertEqual(issuer.validate(token, now: t0 + 59)?.tenantId, "t")
        XCTAssertNil(issuer.validate(token, now: t0 + 60))
        XCTAssertNil(issuer.validate(token + "x", now: t0))
        let other = issuer.issue(tenantId: "t", lifetime: 60, now: t0)
        XCTAssertNotEqual(token, other)
        issuer.expireAll()
        XCTAssertNil(issuer.validate(other, now: t0))
    }

    func testEventIDsIncreaseWithinAMillisecond() {
        var ids = EventIDGenerator()
        XCTAssertEqual(ids.next(now: t0), "1800000000000-0")
        XCTAssertEqual(ids.next(now: t0), "1800000000000-1")
        XCTAssertEqual(ids.next(now: t0 - 1), "1800000000000-2", "never goes back")
        XCTAssertEqual(ids.next(now: t0 + 0.001), "1800000000001-0")
    }

    func testE164() {
        for good in ["+14155550123", "+12", "+234800000000001"] { XCTAssertTrue(SandboxState.isE164(good), good) }
        for bad in ["14155550123", "+", "+1", "+0123", " 14155550123", "+1415555012345678", "+1-415"] {
            XCTAssertFalse(SandboxState.isE164(bad), bad)
        }
    }

    func testQueryStringDecoding() {
        XCTAssertEqual(
            QueryString.parse("userPhone=%2B1555&x=a+b&x=second&empty=&flag"),
            ["userPhone": "+1555", "x": "a b", "empty": "", "flag": ""])
    }
}
