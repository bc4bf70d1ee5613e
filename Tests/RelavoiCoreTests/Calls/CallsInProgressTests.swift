import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct CallsInProgressTests {
    typealias Call = CallsInProgress.Call
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func readsAnsweredCallsAndTheCursor() throws {
        let json = try JSONValue.parse(
            utf8: Array(
                """
                {"data": [
                  {"id": "c1", "sessionId": "s1", "status": "ANSWERED", "answeredAt": "2027-01-15T08:00:00.500Z"},
                  {"id": "c2", "sessionId": "s2", "status": "COMPLETED", "answeredAt": "2027-01-15T08:00:00Z"},
                  {"id": "c3", "sessionId": "s3", "status": "ANSWERED", "answeredAt": null},
                  {"id": "c4", "status": "ANSWERED", "answeredAt": "2027-01-15T08:00:00Z"},
                  {"id": "c5", "sessionId": "s5", "status": "ANSWERED", "answeredAt": "yesterday"},
                  "junk"
                ], "pagination": {"count": 6, "after": "cur"}}
                """.utf8))
        let page = try #require(CallsInProgress.page(json))
        #expect(page.calls.map(\.sessionId) == ["s1"])
        #expect(page.calls[0].answeredAt == ISO8601Timestamp.parse("2027-01-15T08:00:00.500Z"))
        #expect(page.next == "cur")
        #expect(CallsInProgress.page(.object(["data": .null])) == nil)
        #expect(CallsInProgress.page(.string("502 Bad Gateway")) == nil)
    }

    @Test func answeredWhileAwayIsShownFromItsTrueStart() {
        let answered = now.addingTimeInterval(-95)
        let plan = CallsInProgress.plan(listed: [Call(sessionId: "s1", answeredAt: answered)], followed: [:], now: now)
        #expect(plan.answered == [Call(sessionId: "s1", answeredAt: answered)])
        #expect(plan.ended == [])
    }

    @Test func aBannerAlreadyRightIsLeftAlone() {
        let start = now.addingTimeInterval(-30)
        let plan = CallsInProgress.plan(
            listed: [Call(sessionId: "s1", answeredAt: start.addingTimeInterval(0.4))], followed: ["s1": start],
            now: now)
        #expect(plan == CallsInProgress.Plan(answered: [], ended: []))
    }

    @Test func aWrongStartIsCorrected() {
        let truth = now.addingTimeInterval(-300)
        let plan = CallsInProgress.plan(
            listed: [Call(sessionId: "s1", answeredAt: truth)], followed: ["s1": now.addingTimeInterval(-10)], now: now)
        #expect(plan.answered == [Call(sessionId: "s1", answeredAt: truth)])
    }

    @Test func answeredCallsNoLongerListedEnded() {
        let plan = CallsInProgress.plan(
            listed: [Call(sessionId: "s2", answeredAt: now)], followed: ["s1": now, "s2": now, "s0": now], now: now)
        #expect(plan.ended == ["s0", "s1"])
    }

    @Test func theLatestAnswerOfASessionWinsAndStaleRecordsAreSkipped() {
        let plan = CallsInProgress.plan(
            listed: [
                Call(sessionId: "s1", answeredAt: now.addingTimeInterval(-600)),
                Call(sessionId: "s1", answeredAt: now.addingTimeInterval(-60)),
                Call(sessionId: "old", answeredAt: now.addingTimeInterval(-9 * 3600)),
            ], followed: [:], now: now)
        #expect(plan.answered == [Call(sessionId: "s1", answeredAt: now.addingTimeInterval(-60))])
    }
}
