import Foundation
import RelavoiAgentKit
import RelavoiTestSupport
import XCTest

/// The agent against a stand-in for Plasma's notification server (python3-dbusmock
/// answering `GetServerInformation` as Plasma 6.7.4 does) while a panel widget says
/// `ShowingCalls(true)`: the live call leaves the screen at the answer (a new
/// notification at low urgency, the ringing one closed), the end pops as a new one;
/// when the widget goes mid-call, the live call pops again.
final class PlasmaPanelPopupTests: XCTestCase {
    static let low = "byte 0x00"
    static let normal = "byte 0x01"

    func testWhileTheWidgetShowsTheCallTheLiveCallLeavesAndTheEndPops() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "dismiss-policy = after:3",
                prepareServer: { $0.pretend(name: "Plasma", vendor: "KDE", version: "6.7.4") },
                capabilities: "body body-markup persistence actions")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("notification server: Plasma 6.7.4")
            let widget = try BusTestClient(destination: AgentBus.name)
            let said = widget.call("ShowingCalls", Args.tuple([Args.b(true)]))
            XCTAssertFalse(said.isError, said.errorMessage ?? "")
            h.waitForLog("shows the calls")

            h.session("ses_k", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_k", ["proxyNumber": .string("+2348000000001")])
            let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" }
            XCTAssertEqual(ringing?.hints["urgency"], Self.normal, "ringing pops")
            h.send("call.answered", "ses_k")
            h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 2 }
            let live = h.mock.notifyCalls().filter { $0.hints["category"] == "call" }
            XCTAssertEqual(live.first?.replacesId, 0, "the live call is a notification of its own")
            XCTAssertEqual(Set(live.map { $0.hints["urgency"] }), [Self.low], "no live Notify pops")
            XCTAssertEqual(h.mock.closeCalls().count, 1, "the ringing popup closes at the answer")

            // The widget goes: the live call is back on screen, in a new notification.
            XCTAssertFalse(widget.call("ShowingCalls", Args.tuple([Args.b(false)])).isError)
            h.waitForNotify { $0.hints["category"] == "call" && $0.hints["urgency"] == Self.normal }
            XCTAssertEqual(
                h.mock.notifyCalls().last { $0.hints["urgency"] == Self.normal && $0.hints["category"] == "call" }?
                    .replacesId, 0)
            // And back: the end, while the widget shows the calls, pops as a new notification.
            XCTAssertFalse(widget.call("ShowingCalls", Args.tuple([Args.b(true)])).isError)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) {
                    h.mock.notifyCalls().last?.hints["urgency"] == Self.low
                }, "quiet again:\n\(h.agent.log.suffix(2000))")
            h.send("call.ended", "ses_k", ["durationSeconds": .int(4)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertEqual(ended?.replacesId, 0, "the end is a new notification, so Plasma pops it")
            XCTAssertEqual(ended?.hints["urgency"], Self.normal)
        }
    }
}
