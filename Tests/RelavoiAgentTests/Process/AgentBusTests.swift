import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// The agent on the session bus: one per session, `ctl` as its client, and
/// secrets that stay secret.
final class AgentBusTests: XCTestCase {
    @MainActor private static func harness(_ environment: [String: String] = [:]) throws -> AgentHarness {
        let h = try AgentHarness(environment: environment)
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
        return h
    }

    func testSecondAgentSaysAlreadyRunningAndExitsZero() throws {
        try MainActor.assumeIsolated {
            let h = try Self.harness()
            defer { h.stop() }
            // The first agent owns the name once it connected; a second start leaves one agent.
            let (status, output) = try AgentProcess.run(
                arguments: [],
                environment: h.sandbox.agentAccountEnvironment)
            XCTAssertEqual(status, 0)
            XCTAssertTrue(output.contains("already running"), output)
            XCTAssertTrue(h.agent.process.isRunning)
            XCTAssertEqual(h.sandbox.liveClientCount, 1, "still one agent connected")
        }
    }

    func testCtlDrivesBannersOverDBus() throws {
        try MainActor.assumeIsolated {
            let h = try Self.harness()
            defer { h.stop() }
            var (status, output) = try AgentProcess.run(arguments: [
                "ctl", "start", "ses_ctl", "+15550123", "Local app", "--verified",
            ])
            XCTAssertEqual(status, 0, output)
            let shown = h.waitForNotify { $0.summary == "Local app" }
            XCTAssertTrue(shown?.body.contains("+15550123") == true)
            XCTAssertTrue(shown?.body.contains("\nVerified") == true)
            (status, output) = try AgentProcess.run(arguments: ["ctl", "list"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("ses_ctl"), output)
            (status, output) = try AgentProcess.run(arguments: ["ctl", "update", "ses_ctl", "3600", "Renamed"])
            XCTAssertEqual(status, 0, output)
            h.waitForNotify { $0.summary == "Renamed" && $0.body.contains("1:00:0") && $0.body.contains("Unverified") }
            (status, output) = try AgentProcess.run(arguments: ["ctl", "status"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.lowercased().contains("connected"), output)
            (status, output) = try AgentProcess.run(arguments: ["ctl", "diagnostics"])
            XCTAssertEqual(status, 0, output)
            let figures = Dictionary(
                output.split(separator: "\n").compactMap { line -> (String, Int64)? in
                    let parts = line.split(separator: "\t")
                    guard parts.count == 2, let value = Int64(parts[1]) else { return nil }
                    return (String(parts[0]), value)
                }, uniquingKeysWith: { first, _ in first })
            XCTAssertEqual(figures["banners"], 1, output)
            XCTAssertGreaterThan(figures["rss-bytes"] ?? 0, 1 << 20, output)
            // mallinfo2 reads 0 under AddressSanitizer, whose allocator replaces malloc.
            XCTAssertNotNil(figures["heap-in-use-bytes"], output)
            // At least the main-queue bridge and the banner timer.
            XCTAssertGreaterThanOrEqual(figures["main-context-sources"] ?? 0, 2, output)
            XCTAssertNotNil(figures["delivery-context-sources"], output)
            // The stream's own counts: the welcome and the call's frames, one token.
            XCTAssertGreaterThanOrEqual(figures["stream-frames"] ?? 0, 1, output)
            XCTAssertEqual(figures["stream-malformed"], 0, output)
            XCTAssertEqual(figures["token-requests"], 1, output)
            XCTAssertEqual(figures["notification-server"], 1, output)
            XCTAssertEqual(figures["banner-timer"], 1, "a live banner ticks: \(output)")
            (status, output) = try AgentProcess.run(arguments: ["ctl", "end", "ses_ctl"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(LoopWait.until(timeout: 5) { h.mock.closeCalls().count == 1 })
            (status, output) = try AgentProcess.run(arguments: ["ctl", "end", "ses_nope"])
            XCTAssertEqual(status, 1)
            XCTAssertTrue(output.contains("ses_nope"), output)
            (status, output) = try AgentProcess.run(arguments: ["ctl", "start", "bad id!", "+1", "x"])
            XCTAssertNotEqual(status, 0)
            XCTAssertTrue(h.agent.process.isRunning, "bad arguments never crash the agent")

            // Stream, REST, D-Bus and banners all ran on the main loop: libdispatch
            // never started a worker thread ("com.apple.root.…-qos…"), whose pool
            // monitor would wake the idle agent every second for good.
            let tasks = "/proc/\(h.agent.process.processIdentifier)/task"
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap {
                try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)
            }
            XCTAssertFalse(names.isEmpty)
            XCTAssertFalse(names.contains { $0.contains("qos") }, "libdispatch worker threads: \(names)")
        }
    }

    func testSecretFileMustBeOwnerOnlyAndSecretNeverShows() throws {
        try MainActor.assumeIsolated {
            let sandbox = SandboxServer()
            try sandbox.start()
            defer { sandbox.stop() }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
                "relavoi-secret-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("secret")
            try sandbox.options.apiSecret.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            let environment = [
                "RELAVOI_BASE_URL": sandbox.baseURL, "RELAVOI_API_KEY": sandbox.options.apiKey,
                "RELAVOI_TENANT_ID": sandbox.options.tenantId, "RELAVOI_API_SECRET_FILE": file.path,
            ]
            let (status, output) = try AgentProcess.run(arguments: [], environment: environment)
            XCTAssertEqual(status, 78)
            XCTAssertTrue(output.contains("chmod 600") || output.contains("only"), output)
            XCTAssertFalse(output.contains(sandbox.options.apiSecret))

            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let mock = try MockNotificationServer.start()
            defer { mock.stop() }
            let agent = try AgentProcess(arguments: ["--verbose"], environment: environment)
            try agent.start()
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { MainActor.assumeIsolated { sandbox.liveClientCount == 1 } }, agent.log)
            let cmdline =
                (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(agent.process.processIdentifier)/cmdline")))
                ?? Data()
            XCTAssertFalse(String(decoding: cmdline, as: UTF8.self).contains(sandbox.options.apiSecret))
            agent.signal(SIGTERM)
            XCTAssertEqual(agent.waitForExit(timeout: 5), 0)
            XCTAssertFalse(agent.log.contains(sandbox.options.apiSecret), "the secret is never logged")
            XCTAssertTrue(agent.log.contains("API secret from"), agent.log)
        }
    }
}
