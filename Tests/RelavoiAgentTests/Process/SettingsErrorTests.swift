import Foundation
import RelavoiTestSupport
import XCTest

/// Wrong settings: one clear message naming what to set, exit 78.
final class SettingsErrorTests: XCTestCase {
    /// No account at all is not a wrong setting: the agent says what to run and
    /// waits for it (the notice: ConnectionHealthProcessTests).
    func testMissingAPIKeySaysWhatToSetAndWaits() throws {
        let agent = try AgentProcess(arguments: [])
        try agent.start()
        defer { agent.terminate() }
        XCTAssertTrue(agent.waitForLog("not set up: waiting for `relavoi-agent login`"), agent.log)
        XCTAssertTrue(agent.log.contains("api-key: not set: run `relavoi-agent login`"), agent.log)
        XCTAssertTrue(agent.process.isRunning, agent.log)
    }

    /// `--config FILE` is the only file read: the default agent.conf (here with a bad
    /// value) is not read by the agent nor by any part of it, the banners included.
    func testConfigIsTheOnlyFileRead() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-config-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let named = home.appendingPathComponent("named.conf")
        let started = try AgentProcess(
            arguments: ["--config", named.path], config: "keep-on-screen = maybe", configHome: home)
        try "[agent]\nmax-banners = 2\n".write(to: named, atomically: true, encoding: .utf8)
        try started.start()
        defer { started.terminate() }
        XCTAssertTrue(
            started.waitForLog("not set up: waiting for `relavoi-agent login` (watching \(named.path))"), started.log)
        XCTAssertTrue(started.process.isRunning, started.log)
        XCTAssertFalse(started.log.contains("keep-on-screen"), "the default file was read: \(started.log)")
    }

    func testBadValueNamesTheKey() throws {
        let (status, output) = try AgentProcess.run(
            arguments: [], config: "max-banners = lots",
            environment: ["RELAVOI_API_KEY": "rk_test_x", "RELAVOI_TENANT_ID": "5a4d0000-0000-4000-8000-00000000c0de"])
        XCTAssertEqual(status, 78)
        XCTAssertTrue(output.contains("max-banners: expected a number from 1 to 20"), output)
    }

    func testBadOpenURLTemplateStopsTheAgentNamingTheKey() throws {
        for (template, message) in [
            ("https://ops.example.com/{callId}", "open-url: unknown placeholder {callId}"),
            ("http://ops.example.com/{sessionId}", "open-url: plain http:// only to a loopback host"),
        ] {
            let (status, output) = try AgentProcess.run(
                arguments: [], config: "open-url = \(template)",
                environment: [
                    "RELAVOI_API_KEY": "rk_test_x", "RELAVOI_TENANT_ID": "5a4d0000-0000-4000-8000-00000000c0de",
                ])
            XCTAssertEqual(status, 78, output)
            XCTAssertTrue(output.contains(message), output)
            XCTAssertEqual(
                output.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, "one message: \(output)")
        }
    }

    func testUnknownKeyAndSecretInConfigAreRefused() throws {
        var (status, output) = try AgentProcess.run(arguments: [], config: "max-baners = 2")
        XCTAssertEqual(status, 78)
        XCTAssertTrue(output.contains("max-baners: unknown setting"), output)
        (status, output) = try AgentProcess.run(arguments: [], config: "api-secret = rs_0000")
        XCTAssertEqual(status, 78)
        XCTAssertFalse(output.contains("rs_0000"), "the secret is never echoed")
    }

    func testABadEscapeStopsTheAgentNamingTheKey() throws {
        let (status, output) = try AgentProcess.run(
            arguments: [], config: "label-key = who\\qis",
            environment: ["RELAVOI_API_KEY": "rk_test_x", "RELAVOI_TENANT_ID": "5a4d0000-0000-4000-8000-00000000c0de"])
        XCTAssertEqual(status, 78, output)
        XCTAssertTrue(output.contains("label-key"), "one message naming the key: \(output)")
        XCTAssertEqual(output.split(separator: "\n").count, 1, output)
    }

    func testPlainWebSocketToARemoteHostIsRefused() throws {
        let (status, output) = try AgentProcess.run(
            arguments: [], config: "",
            environment: [
                "RELAVOI_API_KEY": "rk_test_x", "RELAVOI_TENANT_ID": "5a4d0000-0000-4000-8000-00000000c0de",
                "RELAVOI_API_SECRET": "rs_secret_value", "RELAVOI_BASE_URL": "http://example.com/v1",
            ])
        XCTAssertEqual(status, 78)
        XCTAssertTrue(output.lowercased().contains("tls") || output.contains("https"), output)
        XCTAssertFalse(output.contains("rs_secret_value"))
    }

    /// Without a session bus no banner can show: the agent and its demo both
    /// say so and exit, where the demo used to play its call to nobody.
    func testNoSessionBusIsAnErrorForTheAgentAndItsDemo() throws {
        let nowhere = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/relavoi-test-bus"]
        for arguments in [[], ["--demo"]] {
            let (status, output) = try AgentProcess.run(arguments: arguments, environment: nowhere)
            XCTAssertEqual(status, 1, "\(arguments): \(output)")
            XCTAssertTrue(output.contains("no D-Bus session bus"), output)
            XCTAssertEqual(output.contains("notification server"), arguments == ["--demo"], output)
        }
    }

    func testHelpAndVersionAndBadOption() throws {
        var (status, output) = try AgentProcess.run(arguments: ["--help"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.contains("--demo") && output.contains("--config"), output)
        (status, output) = try AgentProcess.run(arguments: ["--version"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.hasPrefix("relavoi-agent "), output)
        (status, output) = try AgentProcess.run(arguments: ["--nope"])
        XCTAssertEqual(status, 2)
        XCTAssertTrue(output.contains("--help"))
    }
}
