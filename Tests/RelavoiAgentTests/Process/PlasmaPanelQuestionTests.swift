import Foundation
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// The running agent's "Show calls in the panel?" on KDE Plasma, against a stand-in
/// plasmashell (`org.kde.PlasmaShell.evaluateScript` on python3-dbusmock) and dbusmock's
/// notification server, as `TopBarQuestionTests` does on GNOME.
final class PlasmaPanelQuestionTests: XCTestCase {
    static let summary = "Show calls in the panel?"
    static let kde = ["XDG_CURRENT_DESKTOP": "KDE"]

    func testAskedOnceAndYesAddsTheWidgetBesideTheTray() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInPlasmaShell(probe: "6.7.4 true false")
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.kde, capabilities: "body actions")
            defer { h.stop() }
            let question = h.waitForNotify { $0.summary == Self.summary }
            XCTAssertEqual(question?.actions, ["kde-panel-on", "Show in panel", "kde-panel-off", "No, thanks"])
            XCTAssertEqual(question?.hints["resident"], "true", "it waits for an answer")
            h.mock.emitActionInvoked(id: 1, action: "kde-panel-on", token: "t")
            h.waitForLog("kde panel: adding the widget: added")
            let scripts = shell.scripts()
            XCTAssertEqual(scripts.count, 2, "the probe, then the add")
            XCTAssertTrue(scripts.last?.contains("addWidget(\"com.relavoi.call\",") == true)
            XCTAssertTrue(scripts.last?.contains("org.kde.plasma.systemtray") == true, "beside the tray")
            XCTAssertTrue(h.agentConf.contains("kde-panel=on"), h.agentConf)
            XCTAssertEqual(h.mock.notifyCalls().filter { $0.summary == Self.summary }.count, 1, "asked once")
        }
    }

    func testNoChangesNothingAndIsNeverAskedAgain() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInPlasmaShell(probe: "6.7.4 true false")
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.kde, capabilities: "body actions")
            XCTAssertNotNil(h.waitForNotify { $0.summary == Self.summary })
            h.mock.emitActionInvoked(id: 1, action: "kde-panel-off", token: "t")
            h.waitForLog("kde panel: the person said no; not asking again")
            XCTAssertTrue(h.agentConf.contains("kde-panel=off"), h.agentConf)
            XCTAssertEqual(shell.scripts().count, 1, "the probe only: nothing added")
            h.stop()

            let again = try AgentHarness(config: "kde-panel = off", environment: Self.kde, capabilities: "body actions")
            defer { again.stop() }
            again.waitForLog("kde panel: not asking (already answered: off)")
            XCTAssertTrue(again.waitForConnection())
            XCTAssertFalse(again.mock.notifyCalls().contains { $0.summary == Self.summary })
        }
    }

    func testPlasma63IsNotAsked() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInPlasmaShell(probe: "6.3.6 true false")
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.kde, capabilities: "body actions")
            defer { h.stop() }
            h.waitForLog("kde panel: not asking: Plasma 6.3.6 is older than 6.4: the tray item shows the calls")
            XCTAssertTrue(h.waitForConnection())
            XCTAssertFalse(h.mock.notifyCalls().contains { $0.summary == Self.summary })
            XCTAssertEqual(shell.scripts().count, 1)
        }
    }
}
