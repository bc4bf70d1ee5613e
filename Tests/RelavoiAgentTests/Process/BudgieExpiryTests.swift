import Foundation
import RelavoiAgentKit
import RelavoiCore
import RelavoiTestSupport
import XCTest

/// Budgie closes a call's notification with reason 1 (expired) when its popup
/// times out, and at once for every `Notify` in Do Not Disturb, keeping it in
/// Raven under its id; a `Notify` with that id replaces the entry. Against a
/// stand-in that answers as Budgie 10.9.2, the call's next phase goes under the
/// expired id (twice, for Raven's bug), not as a new notification.
final class BudgieExpiryTests: XCTestCase {
    func testTheNextPhaseOfAnExpiredCallTakesItsIdAgain() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "dismiss-policy = after:120",
                prepareServer: {
                    $0.pretend(
                        name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: "10.9.2")
                })
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("notification server: Budgie Notification Server 10.9.2")
            h.session("ses_bud", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_bud", ["proxyNumber": .string("+2348000000001")])
            h.send("call.answered", "ses_bud")
            // Live: no timer in Budgie's popup (each update would slide it in again).
            h.waitForNotify { $0.summary == "Rider" && !$0.body.contains("Incoming") }
            XCTAssertFalse(
                h.mock.notifyCalls().contains { $0.timerSeconds != nil && !$0.body.contains("ended") },
                "a running timer sent to Budgie: \(h.mock.notifyCalls())")
            // The call's notification: the id its updates replace, or, when the live call is
            // its first, the number the stand-in gave it (each new one the next, from 1).
            let calls = h.mock.notifyCalls()
            let first = calls.firstIndex { $0.summary == "Rider" } ?? 0
            let replaced = calls.last?.replacesId ?? 0
            let id = replaced != 0 ? replaced : UInt32(calls[...first].filter { $0.replacesId == 0 }.count)
            XCTAssertNotEqual(id, 0)

            h.mock.emitClosed(id: id, reason: 1)
            // Handled once nothing more is sent (the banner is gone), before the end comes.
            var last = (count: h.mock.notifyCalls().count, at: Date())
            XCTAssertTrue(
                LoopWait.until(timeout: 10) {
                    let count = h.mock.notifyCalls().count
                    if count != last.count { last = (count, Date()) }
                    return Date().timeIntervalSince(last.at) >= 1.5
                }, "still ticking after the expiry")
            let shownBefore = h.mock.notifyCalls().count
            h.send("call.ended", "ses_bud", ["durationSeconds": .int(5)])
            h.waitForNotify { $0.summary == "Rider" && $0.body.contains("00:05") && $0.replacesId == id }
            XCTAssertTrue(
                LoopWait.until(timeout: 5) {
                    h.mock.notifyCalls().dropFirst(shownBefore).filter { $0.body.contains("00:05") }.count >= 2
                }, "sent twice: \(h.mock.notifyCalls().dropFirst(shownBefore))")
            let after = h.mock.notifyCalls().dropFirst(shownBefore).filter { $0.summary == "Rider" }
            XCTAssertFalse(after.contains { $0.replacesId == 0 }, "a new notification after the expiry: \(after)")
        }
    }
}
