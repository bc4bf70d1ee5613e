import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiTestSupport
import XCTest

/// The agent against a stand-in for GNOME Shell 43's notification server (python3-dbusmock
/// answering `GetServerInformation` as 43.9 does) while a stand-in extension owns
/// com.relavoi.Agent.ShellIndicator (the pill and the lock-screen card tick): the answer
/// pops as without it, then the live call's notification carries no running timer and is
/// not sent each second; the end is a new notification; when the extension goes, it ticks.
final class GnomeExtensionQuietBannerTests: XCTestCase {
    static let normal = "byte 0x01"

    func testWhileTheExtensionShowsTheCallTheLiveNotificationStopsTicking() throws {
        try MainActor.assumeIsolated {
            var shell: BusTestClient? = try BusTestClient(destination: "org.freedesktop.DBus")
            let request = shell!.call(
                "RequestName", Args.tuple([Args.s(TrayItemController.shellIndicatorName), g_variant_new_uint32(4)]),
                interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
            XCTAssertEqual(Args.printed(request.value), "(1,)", "the stand-in extension owns its name")
            let h = try AgentHarness(
                config: "dismiss-policy = default",
                prepareServer: { $0.pretend(name: "gnome-shell", vendor: "GNOME", version: "43.9") })
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.waitForLog("the GNOME Shell extension shows the calls")
            h.session("ses_q", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_q", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Verified") }
            h.send("call.answered", "ses_q")
            let live = h.waitForNotify { $0.hints["category"] == "call" }
            XCTAssertEqual(live?.hints["urgency"], Self.normal, "the answer pops as on GNOME 43 without it")
            XCTAssertNil(live?.timerText, "no running timer: \(live?.body ?? "")")
            XCTAssertTrue(live?.body.contains("since") == true, live?.body ?? "")
            // No tick comes while the extension shows the call (at most the one quiet
            // low-urgency update after the answer, the same words).
            let ticked = LoopWait.until(timeout: 4) {
                h.mock.notifyCalls().contains { $0.hints["category"] == "call" && $0.timerText != nil }
            }
            XCTAssertFalse(ticked, "a tick was sent: \(h.mock.notifyCalls().map(\.body))")
            let liveSent = h.mock.notifyCalls().filter { $0.hints["category"] == "call" }
            XCTAssertLessThanOrEqual(liveSent.count, 2, "\(liveSent.map { ($0.body, $0.hints["urgency"]) })")
            XCTAssertEqual(Set(liveSent.map(\.body)).count, 1, "the same words: \(liveSent.map(\.body))")

            // The extension goes: the live notification ticks again, quietly.
            shell = nil
            h.waitForLog("the GNOME Shell extension no longer shows the calls")
            let ticking = h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 4 }
            XCTAssertNotNil(ticking, "ticking again without the extension")
            h.send("call.ended", "ses_q", ["durationSeconds": .int(6)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertEqual(ended?.replacesId, 0, "the end is a new notification, so it is heard")
            XCTAssertEqual(ended?.hints["urgency"], Self.normal)
            _ = shell
        }
    }
}
