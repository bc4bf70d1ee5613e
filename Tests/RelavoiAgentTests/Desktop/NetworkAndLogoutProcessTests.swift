import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// Network changes (GIO's NetworkManager monitor following python3-dbusmock's
/// NetworkManager) and logout (the session bus going away), against the built agent.
final class NetworkAndLogoutProcessTests: XCTestCase {
    /// With the network down the stream keeps to its own backoff (no added
    /// attempts); when the network comes back it reconnects at once instead
    /// of waiting out the backoff.
    func testNetworkBackReconnectsAtOnce() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness(networkManager: true) { h in
                let nm = try XCTUnwrap(h.networkManager)
                nm.setState(MockNetworkManager.disconnected)
                let tokensBefore = h.sandbox.tokenRequestCount
                let due = try XCTUnwrap(h.failUntilBackoff(atLeast: 3))
                let attempts = h.sandbox.tokenRequestCount - tokensBefore
                // 0.5 + 1 + 2 s of backoff: four attempts, give or take the jitter.
                XCTAssertLessThanOrEqual(attempts, 5, "no extra attempts while the network is down")
                XCTAssertTrue(h.agent.log.contains("the network is unavailable"), h.agent.log)

                h.sandbox.failTokenRequests = nil
                let up = Date()
                nm.setState(MockNetworkManager.connectedGlobal)
                let latency = try XCTUnwrap(h.secondsToWelcome(after: up), "no reconnect:\n\(h.agent.log.suffix(3000))")
                report("network up → welcome", latency)
                report("(the backoff wait had left)", due.timeIntervalSince(up))
                XCTAssertTrue(h.agent.log.contains("the network changed: reconnecting now"))
                // The pending backoff wait was cut short, not waited out (read from the log, not the clock).
                XCTAssertTrue(
                    h.agent.log.contains("Relavoi stream: reconnecting now"), String(h.agent.log.suffix(2000)))
            }
        }
    }

    /// A change while online (NetworkManager reconnecting) probes the live
    /// stream: one ping, no new socket when the old one still answers.
    func testNetworkChangeWhileOnlineKeepsAHealthySocket() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness(networkManager: true) { h in
                let nm = try XCTUnwrap(h.networkManager)
                let pings = h.sandbox.receivedMessages.filter { $0 == "ping" }.count
                nm.setState(MockNetworkManager.disconnected)
                nm.setState(MockNetworkManager.connectedGlobal)
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { h.sandbox.receivedMessages.filter { $0 == "ping" }.count > pings },
                    "no probe ping:\n\(h.agent.log.suffix(2000))")
                // The sandbox answers the ping at once; the pong ends the probe (anything received
                // does), and with no probe left its deadline keeps the socket.
                XCTAssertTrue(h.agent.waitForLog("the probe was answered"), String(h.agent.log.suffix(2000)))
                h.session("ses_marker", label: "Marker")
                h.answer("ses_marker")
                h.waitForNotify(timeout: 30) { $0.summary == "Marker" }
                XCTAssertFalse(h.agent.log.contains("replacing the connection"), String(h.agent.log.suffix(2000)))
                XCTAssertEqual(h.welcomes.count, 1, "the healthy socket stays")
                XCTAssertEqual(h.sandbox.liveClientCount, 1)
            }
        }
    }

    /// Logout: the session bus goes away. The agent closes the stream and
    /// exits 0 within about a second (the systemd unit restarts on failure
    /// only), and nothing starts it again.
    func testSessionBusClosingEndsTheAgentCleanly() throws {
        try MainActor.assumeIsolated {
            let sessionBus = try PrivateBus()
            defer { sessionBus.stop() }
            let notifyLog = FileManager.default.temporaryDirectory.appendingPathComponent(
                "session-notify-\(UUID()).log")
            defer { try? FileManager.default.removeItem(at: notifyLog) }
            try sessionBus.startMock(
                template: "notification_daemon", busName: "org.freedesktop.Notifications", system: false, log: notifyLog
            )
            try withDesktopHarness(sessionBus: sessionBus) { h in
                h.session("ses_out", label: "Logout")
                h.answer("ses_out")
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) {
                        ((try? String(contentsOf: notifyLog, encoding: .utf8)) ?? "").contains("Logout")
                    }, "banner never shown:\n\(h.agent.log)")

                let logout = Date()
                sessionBus.kill()
                let status = h.agent.waitForExit(timeout: 30)
                let exited = Date().timeIntervalSince(logout)
                report("session bus gone → agent exited", exited)
                XCTAssertEqual(status, 0, h.agent.log)
                XCTAssertTrue(
                    h.agent.log.contains("the session bus closed (logout)"), "ended by the logout, not a timeout")
                XCTAssertEqual(h.sandbox.liveClientCount, 0)
                XCTAssertTrue(h.agent.log.contains("Relavoi stream: disconnected"), "the stream closed cleanly")
                // Exit status 0: the unit (Restart=on-failure) does not start it again.
            }
        }
    }
}
