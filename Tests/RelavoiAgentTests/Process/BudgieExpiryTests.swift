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
        try endOfAnExpiredCall(config: "dismiss-policy = after:120") { h, _, shownBefore in
            XCTAssertTrue(
                LoopWait.until(timeout: 5) {
                    h.mock.notifyCalls().dropFirst(shownBefore).filter { $0.body.contains("00:05") }.count >= 2
                }, "sent twice: \(h.mock.notifyCalls().dropFirst(shownBefore))")
            let after = h.mock.notifyCalls().dropFirst(shownBefore).filter { $0.summary == "Rider" }
            XCTAssertFalse(after.contains { $0.replacesId == 0 }, "a new notification after the expiry: \(after)")
        }
    }

    /// Raven takes an entry only from an expiry: with `dismiss-policy =
    /// immediate` the end of a call whose live notification expired is shown
    /// all the same, under that id, and never closed by the agent; the call
    /// goes when Budgie expires its end (else Raven keeps it listed as live).
    func testAnImmediateEndOfAnExpiredCallIsShownAndLeftToExpire() throws {
        try endOfAnExpiredCall(config: "dismiss-policy = immediate") { h, id, _ in
            XCTAssertTrue(
                Self.listed(h) { $0.contains("\tended\t5\t") }, "the ended call is kept until Budgie expires it")
            h.mock.emitClosed(id: id, reason: 1)
            XCTAssertTrue(Self.listed(h) { !$0.contains("ses_bud") }, "gone with Budgie's expiry")
            XCTAssertFalse(h.mock.closeCalls().contains(id), "closed by the agent: \(h.mock.closeCalls())")
        }
    }

    /// An agent with `config` against a stand-in answering as Budgie 10.9.2:
    /// call "ses_bud" rung and answered, its live notification expired (reason 1),
    /// then, once the agent is quiet, ended after 5 s; `body` runs once the end
    /// came under the expired id, with the harness, that id and how many
    /// `Notify` the server had got before the end.
    private func endOfAnExpiredCall(
        config: String, _ body: @MainActor (AgentHarness, UInt32, Int) throws -> Void
    ) throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: config,
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
            guard h.waitForNotify({ $0.summary == "Rider" && $0.body.contains("00:05") && $0.replacesId == id }) != nil
            else { return }
            try body(h, id, shownBefore)
        }
    }

    /// Waits until `relavoi-agent ctl list` prints what `predicate` accepts.
    @MainActor
    private static func listed(_ h: AgentHarness, _ predicate: @escaping (String) -> Bool) -> Bool {
        LoopWait.until(timeout: 10) {
            guard let (status, output) = try? AgentProcess.run(arguments: ["ctl", "list"]), status == 0 else {
                return false
            }
            return predicate(output)
        }
    }
}
