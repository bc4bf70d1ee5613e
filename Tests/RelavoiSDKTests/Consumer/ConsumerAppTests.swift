import Foundation
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// Examples/CallActivityHost, a package of its own that uses the SDK as an
/// integrator would (the seeds' code), run as a black box against an
/// in-process relavoi-sandbox and python3-dbusmock on the test's private bus.
/// `make test` builds it and names it in RELAVOI_CONSUMER_BIN.
final class ConsumerAppTests: XCTestCase {
    /// The SDK's own loop (`MainLoop.run()`) and the seed's controller: the
    /// banner is the process's own, and ends at once.
    func testSeedControllerOnTheSDKsLoop() throws {
        try MainActor.assumeIsolated {
            try Self.runCall(
                mode: "run", appName: "CallActivityHost", desktopEntry: "CallActivityHost", lingers: false)
        }
    }

    /// The host runs `g_main_loop_run` itself after naming itself to GLib; its
    /// ended banner lingers (`.after`), then closes.
    func testHostOwnedGLibLoop() throws {
        try MainActor.assumeIsolated {
            try Self.runCall(
                mode: "host-loop", appName: "Call Activity Host", desktopEntry: "org.example.CallActivityHost",
                lingers: true)
        }
    }

    @MainActor
    private static func runCall(mode: String, appName: String, desktopEntry: String, lingers: Bool) throws {
        let binary = try consumerBinary()
        let mock = try MockNotificationServer.start()
        let sandbox = SandboxServer()
        try sandbox.start()
        let app = try AgentProcess(
            executable: binary, arguments: [mode],
            environment: [
                "RELAVOI_BASE_URL": sandbox.baseURL, "RELAVOI_API_KEY": sandbox.options.apiKey,
                "RELAVOI_TENANT_ID": sandbox.options.tenantId, "RELAVOI_API_SECRET": sandbox.options.apiSecret,
            ])
        defer {
            app.terminate(timeout: 10)
            sandbox.stop()
            mock.stop()
        }
        try app.start()
        let context = { "\n\(mode) log:\n\(app.log.suffix(3000))\nNotify: \(mock.notifyCalls().map(\.body))" }

        XCTAssertTrue(
            LoopWait.until(timeout: 30) { app.log.contains("host: connected true") }, "connected\(context())")
        sandbox.sendEvent(type: "call.answered", payload: ["sessionId": .string("ses_host")])

        // The seeds' listeners: the home view's print and one added from a detached task.
        XCTAssertTrue(LoopWait.until(timeout: 30) { app.log.contains("Answered ses_host") }, "listener\(context())")
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { app.log.contains("any-isolation: answered ses_host") },
            "off-main listener\(context())")

        // The LiveActivityManager's banner, under the host's name, then ticking in place.
        var first: MockNotificationServer.NotifyCall?
        LoopWait.until(timeout: 30) {
            first = mock.notifyCalls().first { $0.summary == "Chowdeck rider" }
            return first != nil
        }
        let banner = try XCTUnwrap(first, "banner\(context())")
        XCTAssertEqual(banner.appName, appName)
        XCTAssertEqual(banner.hints["desktop-entry"], desktopEntry)
        XCTAssertEqual(banner.body, "+2348000000001, 00:00\nVerified")
        XCTAssertTrue(
            LoopWait.until(timeout: 30) {
                mock.notifyCalls().contains {
                    $0.body.hasPrefix("+2348000000001, ") && ($0.timerSeconds ?? -1) >= 2 && $0.replacesId != 0
                }
            }, "ticks\(context())")

        sandbox.sendEvent(
            type: "call.ended", payload: ["sessionId": .string("ses_host"), "durationSeconds": .int(3)])
        XCTAssertTrue(LoopWait.until(timeout: 30) { mock.closeCalls().count == 1 }, "closed\(context())")
        let ended = mock.notifyCalls().filter { $0.body.hasPrefix("Call ended") }
        if lingers {
            XCTAssertEqual(ended.count, 1, "the ended state shows before the close\(context())")
            XCTAssertEqual(ended.first?.appName, appName)
        } else {
            XCTAssertEqual(ended.count, 0, "immediate: no ended state\(context())")
        }
        XCTAssertEqual(app.waitForExit(timeout: 30), 0, "the host quits after the call\(context())")
        XCTAssertTrue(app.log.contains("host: call ended"))
    }

    /// RELAVOI_CONSUMER_BIN (set by `make test`, then it must exist), else the
    /// example's own debug build if there is one.
    static func consumerBinary() throws -> String {
        if let named = ProcessInfo.processInfo.environment["RELAVOI_CONSUMER_BIN"] {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw ConsumerMissing(path: named)
            }
            return named
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let built = root.appendingPathComponent("Examples/CallActivityHost/.build/debug/CallActivityHost").path
        guard FileManager.default.isExecutableFile(atPath: built) else {
            throw XCTSkip("Examples/CallActivityHost is not built (make test builds it)")
        }
        return built
    }

    struct ConsumerMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "RELAVOI_CONSUMER_BIN names \(path), which is not an executable" }
    }
}
