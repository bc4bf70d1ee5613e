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
}
