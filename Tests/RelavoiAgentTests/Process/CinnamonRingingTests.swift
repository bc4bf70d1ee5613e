import Foundation
import RelavoiCore
import RelavoiTestSupport
import XCTest

/// Cinnamon (5.6.8 and 6.4.10: js/ui/messageTray.js) hides every popup below
/// critical urgency `notification-duration` seconds (4) after its last update,
/// `expire_timeout` 0 too, and never a critical one. Against a stand-in that
/// answers as Cinnamon 5.6.8, the ringing call, which does not tick, goes at
/// critical urgency, and the answered call goes back to normal in the same
/// notification (its ticks keep it up).
final class CinnamonRingingTests: XCTestCase {
    func testTheRingingCallIsCriticalOnCinnamonAndTheLiveCallNormal() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness.onCinnamon(config: "dismiss-policy = after:120")
            defer { h.stop() }
            h.session("ses_ring", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_ring", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Verified") }
            h.send("call.answered", "ses_ring")
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 1 }
            let calls = h.mock.notifyCalls()
            let ringing = calls.filter { $0.hints["category"] == "call.incoming" }
            let live = calls.filter { $0.hints["category"] == "call" }
            XCTAssertFalse(ringing.isEmpty)
            XCTAssertEqual(Set(ringing.map { $0.hints["urgency"] }), ["byte 0x02"], "ringing: critical")
            XCTAssertEqual(Set(live.map { $0.hints["urgency"] }), ["byte 0x01"], "live: normal, kept up by its ticks")
            XCTAssertEqual(calls.filter { $0.hints["sound-name"] != nil }.count, 1, "one ring")
            XCTAssertEqual(calls.first?.replacesId, 0)
            XCTAssertEqual(Set(calls.dropFirst().map(\.replacesId)).count, 1, "one notification for the call")
        }
    }

    /// Cinnamon shows one popup at a time and a critical one holds it: a second
    /// call that rings outrings the first, which goes normal in place (its hide
    /// timer hands the popup to the second).
    func testASecondRingingCallMakesTheFirstNormalInPlaceAndRingsOnce() throws {
        try MainActor.assumeIsolated {
            let h = try Self.twoSessions()
            defer { h.stop() }
            h.send("call.incoming", "ses_a", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.summary == "Rider" && $0.body.contains("Verified") }
            h.send("call.incoming", "ses_b", ["proxyNumber": .string("+2348000000002")])
            h.waitForNotify { $0.summary == "Courier" && $0.body.contains("Verified") }
            h.waitForNotify { $0.summary == "Rider" && $0.hints["urgency"] == "byte 0x01" }
            let calls = h.mock.notifyCalls()
            let a = calls.filter { $0.summary == "Rider" }
            let b = calls.filter { $0.summary == "Courier" }
            XCTAssertEqual(Set(b.map { $0.hints["urgency"] }), ["byte 0x02"], "the newest ringing call: critical")
            XCTAssertEqual(a.first?.hints["urgency"], "byte 0x02", "the first rang critical")
            XCTAssertEqual(a.last?.hints["urgency"], "byte 0x01", "outrung: normal")
            XCTAssertTrue(a.allSatisfy { $0.hints["category"] == "call.incoming" }, "still ringing")
            XCTAssertEqual(a.first?.replacesId, 0)
            XCTAssertEqual(Set(a.dropFirst().map(\.replacesId)).count, 1, "in place: one notification for the call")
            XCTAssertFalse(a.dropFirst().map(\.replacesId).contains(0), "no new notification for a")
            XCTAssertEqual(a.filter { $0.hints["sound-name"] != nil }.count, 1, "a rings once")
            XCTAssertEqual(b.filter { $0.hints["sound-name"] != nil }.count, 1, "b rings once")
        }
    }

    /// A live call ticks, which holds Cinnamon's one popup: while another call
    /// rings it goes without its running timer, and ticks again after.
    func testALiveCallDropsItsTimerWhileAnotherCallRingsAndTicksAgainAfter() throws {
        try MainActor.assumeIsolated {
            let h = try Self.twoSessions()
            defer { h.stop() }
            h.send("call.incoming", "ses_a", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.summary == "Rider" && $0.body.contains("Verified") }
            h.send("call.answered", "ses_a")
            h.waitForNotify { $0.summary == "Rider" && ($0.timerSeconds ?? -1) >= 1 }
            h.send("call.incoming", "ses_b", ["proxyNumber": .string("+2348000000002")])
            h.waitForNotify { $0.summary == "Courier" && $0.body.contains("Verified") }
            h.waitForNotify { $0.summary == "Rider" && $0.hints["category"] == "call" && $0.timerText == nil }
            h.send("call.missed", "ses_b")
            h.waitForNotify { $0.summary == "Courier" && $0.body.contains("Missed") }
            h.waitForNotify { $0.summary == "Rider" && $0.timerText != nil && $0.hints["category"] == "call" }
            // (That no tick is sent while b rings is the posting machine's: OutrungRingingTests.)
            let calls = h.mock.notifyCalls()
            let a = calls.filter { $0.summary == "Rider" }
            XCTAssertFalse(a.dropFirst().map(\.replacesId).contains(0), "one notification for a")
            XCTAssertEqual(a.filter { $0.hints["sound-name"] != nil }.count, 1, "a rings once")
        }
    }

    /// The stand-in answering as Cinnamon 5.6.8, with calls a ("Rider") and b ("Courier").
    @MainActor private static func twoSessions(file: StaticString = #filePath, line: UInt = #line) throws
        -> AgentHarness
    {
        let h = try AgentHarness.onCinnamon(config: "dismiss-policy = after:120", file: file, line: line)
        h.session("ses_a", proxy: "+2348000000001", label: "Rider")
        h.session("ses_b", proxy: "+2348000000002", label: "Courier")
        return h
    }
}
