import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiTestSupport
import XCTest

/// The agent against a stand-in for Plasma's notification server (python3-dbusmock
/// answering `GetServerInformation` as Plasma 6.7.4 does) while a panel widget says
/// `ShowingCalls(true)`: the live call is a notification of its own with the server's
/// timeout that is never updated (its popup leaves); the server's expiry of it keeps the
/// call; the end pops as a new notification; when the widget goes, the live call pops again.
final class PlasmaPanelPopupTests: XCTestCase {
    static let normal = "byte 0x01"

    func testWhileTheWidgetShowsTheCallTheLiveCallLeavesAndTheEndPops() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "dismiss-policy = after:3",
                prepareServer: {
                    $0.pretend(name: "Plasma", vendor: "KDE", version: "6.7.4")
                    // New notifications get 101, 102, ... (an update keeps its id).
                    $0.replaceMethod(
                        "Notify", in: "susssasa{sv}i", out: "u",
                        code: "if args[1]:\n    ret = args[1]\nelse:\n"
                            + "    self.relavoi_ids = getattr(self, 'relavoi_ids', 100) + 1\n    ret = self.relavoi_ids"
                    )
                },
                capabilities: "body body-markup persistence actions")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("notification server: Plasma 6.7.4")
            let widget = try BusTestClient(destination: AgentBus.name)
            let said = widget.call("ShowingCalls", Args.tuple([Args.b(true)]))
            XCTAssertFalse(said.isError, said.errorMessage ?? "")
            h.waitForLog("shows the calls")
            // The id the server gave a new notification (the latest with that content).
            @MainActor func id(ofNew call: MockNotificationServer.NotifyCall) -> UInt32 {
                let new = h.mock.notifyCalls().filter { $0.replacesId == 0 }
                return UInt32(100 + (new.lastIndex(of: call) ?? -100) + 1)
            }

            h.session("ses_k", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_k", ["proxyNumber": .string("+2348000000001")])
            let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" }
            XCTAssertEqual(ringing?.timeout, 0, "ringing stays up")
            h.send("call.answered", "ses_k")
            let live = h.waitForNotify { $0.hints["category"] == "call" }
            XCTAssertEqual(live?.replacesId, 0, "the live call is a notification of its own")
            XCTAssertEqual(live?.timeout, -1, "it goes with the server's timeout")
            XCTAssertEqual(live?.hints["urgency"], Self.normal)
            XCTAssertNil(live?.timerText, "no running timer: \(live?.body ?? "")")
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { h.mock.closeCalls().count == 1 }, "the ringing one closes at the answer")

            // The widget goes: the live call is back on screen for good, ticking.
            XCTAssertFalse(widget.call("ShowingCalls", Args.tuple([Args.b(false)])).isError)
            let back = h.waitForNotify { $0.hints["category"] == "call" && $0.timeout == 0 }
            XCTAssertEqual(back?.replacesId, 0)
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 1 }
            // And back again: a new live notification that leaves.
            // Counted before the call: the agent may send the new one before the reply comes back.
            let count = h.mock.notifyCalls().count
            @MainActor func leaving() -> [MockNotificationServer.NotifyCall] {
                h.mock.notifyCalls().dropFirst(count).filter {
                    $0.hints["category"] == "call" && $0.timeout == -1 && $0.replacesId == 0
                }
            }
            XCTAssertFalse(widget.call("ShowingCalls", Args.tuple([Args.b(true)])).isError)
            XCTAssertTrue(LoopWait.until(timeout: 10) { !leaving().isEmpty }, "a new live notification that leaves")
            let again = leaving().last
            // The server expires it (Plasma does, a minute or more after a resident
            // popup left): the call stays in the agent's Calls, and nothing is shown again.
            let calls = try BusTestClient(destination: AgentBus.name)
            if let again { h.mock.emitClosed(id: id(ofNew: again), reason: 1) }
            h.waitForLog("the notification of call:ses_k expired off screen")
            XCTAssertTrue(calls.agentCalls().contains("'phase': <'live'>"), calls.agentCalls())
            h.send("call.ended", "ses_k", ["durationSeconds": .int(6)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertEqual(ended?.replacesId, 0, "the end is a new notification, so Plasma pops it")
            XCTAssertEqual(ended?.hints["urgency"], Self.normal)
            XCTAssertEqual(leaving().count, 1, "the live call that leaves was sent once: \(leaving().map(\.body))")
        }
    }
}
