import Foundation
import RelavoiCore
import RelavoiTestSupport
import XCTest

/// The agent against a stand-in for COSMIC's notification server: python3-dbusmock
/// answering `GetServerInformation` and `GetCapabilities` as cosmic-notifications
/// does (src/subscriptions/notifications.rs at pop-os/cosmic-notifications
/// 7837e494961d). There no timeout but 0 keeps a popup on screen (normal is
/// capped at 5 s, low and -1 at 3 s), and the timer is set only when an id first
/// shows, so a call must never expire by itself: the agent closes it.
final class CosmicStandInTests: XCTestCase {
    static let capabilities = "body icon-static persistence actions action-icons body-markup body-hyperlinks sound"

    func testTheLiveCallOnCosmicNeverExpiresAndTicksInPlace() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "dismiss-policy = after:3",
                prepareServer: { $0.pretend(name: "cosmic-notifications", vendor: "System76", version: "0.1.0") },
                capabilities: Self.capabilities)
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("notification server: cosmic-notifications 0.1.0")
            h.session("ses_c", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_c", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Verified") }
            h.send("call.answered", "ses_c")
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 2 }
            h.send("call.ended", "ses_c", ["durationSeconds": .int(3)])
            h.waitForNotify { $0.hints["category"] == "call.ended" }
            let calls = h.mock.notifyCalls()
            let up = calls.filter { ["call.incoming", "call"].contains($0.hints["category"]) }
            XCTAssertEqual(up.filter { $0.timeout != 0 }.map(\.timeout), [], "ringing and live never expire")
            XCTAssertEqual(Set(up.map { $0.hints["urgency"] }), ["byte 0x01"], "normal urgency: 0 is enough")
            XCTAssertEqual(up.filter { $0.hints["resident"] != "true" }.count, 0)
            XCTAssertEqual(
                calls.filter { $0.hints["transient"] != nil }.count, 0,
                "plain ticks: a transient Notify would skip COSMIC's panel applet")
            // One entry: the first Notify makes it, every later one replaces it.
            XCTAssertEqual(calls.first?.replacesId, 0)
            let ids = Set(calls.dropFirst().map(\.replacesId))
            XCTAssertEqual(ids.count, 1, "\(calls.map(\.replacesId))")
            XCTAssertFalse(ids.contains(0))
            XCTAssertEqual(calls.filter { $0.hints["sound-name"] != nil }.count, 1)
            // COSMIC starts no timer for the ended update: the agent closes it after the linger.
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { h.mock.closeCalls() == Array(ids) },
                "the agent closed the call's one notification: \(h.mock.closeCalls())")
        }
    }
}
