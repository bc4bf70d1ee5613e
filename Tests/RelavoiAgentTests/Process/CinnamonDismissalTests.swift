import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiTestSupport
import XCTest

/// Cinnamon 5.6.8's close button sends `NotificationClosed` with reason 0, not
/// the spec's 2 (js/ui/messageTray.js hands the button to `destroy(reason)`).
/// Against a stand-in that answers as Cinnamon, the agent takes that close as
/// the person's: the call is no longer shown, nothing pops up again.
final class CinnamonDismissalTests: XCTestCase {
    func testReasonZeroOnCinnamonIsThePersonsDismissal() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness.onCinnamon(config: "dismiss-policy = after:120")
            defer { h.stop() }
            let client = try BusTestClient(destination: AgentBus.name)
            client.subscribe(interface: AgentBus.interface, member: "BannerDismissed")
            h.session("ses_cin", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_cin", ["proxyNumber": .string("+2348000000001")])
            h.send("call.answered", "ses_cin")
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 1 }
            let shownBefore = h.mock.notifyCalls().count
            // The id the server gave the call's notification: the one every update replaces.
            let id = h.mock.notifyCalls().last?.replacesId ?? 0
            XCTAssertNotEqual(id, 0)

            h.mock.emitClosed(id: id, reason: 0)
            XCTAssertTrue(
                LoopWait.until(timeout: 10) {
                    client.signals.contains { $0.member == "BannerDismissed" && $0.body == "('ses_cin',)" }
                }, "the agent heard the person:\n\(h.agent.log.suffix(2000))")
            // The call goes on, unseen as the person asked: its end shows nothing.
            // A second call after it marks the point where the end was handled
            // (the stream's events are handled in order).
            h.send("call.ended", "ses_cin", ["durationSeconds": .int(5)])
            h.session("ses_next", proxy: "+2348000000002", label: "Next")
            h.send("call.incoming", "ses_next", ["proxyNumber": .string("+2348000000002")])
            h.waitForNotify { $0.summary == "Next" }
            let after = h.mock.notifyCalls().dropFirst(shownBefore)
            XCTAssertFalse(after.contains { $0.summary == "Rider" }, "shown again after the person closed it: \(after)")
        }
    }
}
