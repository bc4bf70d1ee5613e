import Foundation
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// The running agent's top-bar question on GNOME, against a stand-in GNOME Shell
/// (`org.gnome.Shell.Extensions` on python3-dbusmock) and dbusmock's notification server.
final class TopBarQuestionTests: XCTestCase {
    static let summary = "Show Relavoi calls in the top bar?"
    static let gnome = ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]

    func testAskedOnceAndYesTurnsTheExtensionOn() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInGnomeShell(state: 2)
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.gnome, capabilities: "body actions")
            defer { h.stop() }
            let question = h.waitForNotify { $0.summary == Self.summary }
            XCTAssertEqual(
                question?.actions, ["top-bar-on", "Show in top bar", "top-bar-off", "No, thanks"],
                "two answers, no click action")
            XCTAssertEqual(question?.hints["resident"], "true", "it waits for an answer")
            h.mock.emitActionInvoked(id: 1, action: "top-bar-on", token: "t")
            let done = h.waitForNotify { $0.summary == "Relavoi calls are in the top bar" }
            XCTAssertNotNil(done)
            XCTAssertEqual(shell.enableCalls(), ["relavoi@relavoi.com"])
            XCTAssertTrue(h.mock.closeCalls().contains(1), "the answered question goes")
            XCTAssertTrue(h.agentConf.contains("gnome-top-bar=on"), h.agentConf)
            h.waitForLog("top bar: the extension is on")
            XCTAssertEqual(h.mock.notifyCalls().filter { $0.summary == Self.summary }.count, 1, "asked once")
        }
    }

    func testNoIsSavedAndNeverAskedAgain() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInGnomeShell(state: 6)
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.gnome, capabilities: "body actions")
            XCTAssertNotNil(h.waitForNotify { $0.summary == Self.summary })
            h.mock.emitActionInvoked(id: 1, action: "top-bar-off", token: "t")
            h.waitForLog("top bar: the person said no; not asking again")
            XCTAssertTrue(h.agentConf.contains("gnome-top-bar=off"), h.agentConf)
            XCTAssertEqual(shell.enableCalls(), [])
            h.stop()

            // The next start reads the answer and asks nothing.
            let again = try AgentHarness(
                config: "gnome-top-bar = off", environment: Self.gnome, capabilities: "body actions")
            defer { again.stop() }
            again.waitForLog("top bar: not asking (already answered: off)")
            XCTAssertTrue(again.waitForConnection())
            XCTAssertFalse(again.mock.notifyCalls().contains { $0.summary == Self.summary })
        }
    }

    func testAnExtensionInstalledSinceLoginIsTurnedOnForTheNextLogin() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInGnomeShell(state: nil, enableAnswer: false)
            defer { shell.stop() }
            let data = FileManager.default.temporaryDirectory.appendingPathComponent(
                "relavoi-data-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            let folder = data.appendingPathComponent("gnome-shell/extensions/relavoi@relavoi.com")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "{}".write(to: folder.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
            var environment = Self.gnome
            environment["XDG_DATA_HOME"] = data.path
            // GSettings in a file of the agent's own XDG_CONFIG_HOME, not the machine's dconf.
            environment["GSETTINGS_BACKEND"] = "keyfile"
            let h = try AgentHarness(environment: environment, capabilities: "body actions")
            defer { h.stop() }
            XCTAssertNotNil(h.waitForNotify { $0.summary == Self.summary })
            h.mock.emitActionInvoked(id: 1, action: "top-bar-on", token: "t")
            XCTAssertNotNil(
                h.waitForNotify { $0.summary == "Relavoi calls will be in the top bar after you next log in" })
            XCTAssertEqual(shell.enableCalls(), ["relavoi@relavoi.com"], "asked the shell first")
            let settings = h.agent.configHome.appendingPathComponent("glib-2.0/settings/keyfile")
            let text = (try? String(contentsOf: settings, encoding: .utf8)) ?? ""
            XCTAssertTrue(text.contains("enabled-extensions=['relavoi@relavoi.com']"), text)
        }
    }

    func testAFailingEnableIsSaidOnceAndTheAgentGoesOn() throws {
        try MainActor.assumeIsolated {
            let shell = try StandInGnomeShell(state: 2, enableFails: true)
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.gnome, capabilities: "body actions")
            defer { h.stop() }
            XCTAssertNotNil(h.waitForNotify { $0.summary == Self.summary })
            h.mock.emitActionInvoked(id: 1, action: "top-bar-on", token: "t")
            let failed = h.waitForNotify { $0.summary == "The top bar could not be turned on" }
            XCTAssertEqual(
                failed?.body, "Turn on \"Relavoi calls\" in the Extensions app (GNOME Shell answered: locked down).")
            h.waitForLog("top bar: EnableExtension(relavoi@relavoi.com) failed: locked down")
            XCTAssertTrue(h.waitForConnection(), "the agent goes on")
            XCTAssertEqual(h.mock.notifyCalls().filter { $0.summary == Self.summary }.count, 1, "not asked again")
            XCTAssertTrue(h.agentConf.contains("gnome-top-bar=on"), "the person's answer is kept")
        }
    }

    func testNothingIsAskedWhereItCannotHelp() throws {
        try MainActor.assumeIsolated {
            // (shell state, environment, the log's reason); nil state: no shell on the bus.
            let cases: [(Int??, [String: String], String)] = [
                (.some(2), ["XDG_CURRENT_DESKTOP": "KDE"], "not a GNOME desktop"),
                (.some(1), Self.gnome, "the extension is already on"),
                (.some(.none), Self.gnome, "the extension is not installed"),
                (.some(4), Self.gnome, "GNOME Shell refuses the extension"),
                (.none, Self.gnome, "GNOME Shell is not on the session bus"),
            ]
            for (state, environment, reason) in cases {
                let shell = try state.map { try StandInGnomeShell(state: $0) }
                let h = try AgentHarness(environment: environment, capabilities: "body actions")
                h.waitForLog(reason)
                XCTAssertTrue(h.waitForConnection())
                XCTAssertFalse(h.mock.notifyCalls().contains { $0.summary == Self.summary }, reason)
                h.stop()
                shell?.stop()
            }
            // Extensions turned off for the session: nothing either.
            let shell = try StandInGnomeShell(state: 2, userExtensionsEnabled: false)
            defer { shell.stop() }
            let h = try AgentHarness(environment: Self.gnome, capabilities: "body actions")
            defer { h.stop() }
            h.waitForLog("extensions are turned off in this session")
            XCTAssertEqual(shell.enableCalls(), [])
        }
    }
}
