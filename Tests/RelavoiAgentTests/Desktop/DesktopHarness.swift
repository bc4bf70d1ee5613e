import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// One agent process with a private system bus (python3-dbusmock's logind,
/// and NetworkManager when asked), an in-process relavoi-sandbox, and a
/// notification server: dbusmock's on the test's session bus, or, for
/// logout, one on a private session bus the test can take away.
@MainActor
final class DesktopHarness {
    let sandbox: SandboxServer
    let systemBus: PrivateBus
    let logind: MockLogind
    let networkManager: MockNetworkManager?
    /// The test session bus's notification mock (nil with a private session bus).
    let notifications: MockNotificationServer?
    let agent: AgentProcess
    /// When each of the agent's welcome frames went out (the stream was live).
    private(set) var welcomes: [Date] = []

    /// - Parameters:
    ///   - networkManager: run NetworkManager's mock and have GIO's monitor follow it.
    ///   - sessionBus: the agent's session bus instead of the test's own.
    init(networkManager: Bool = false, sessionBus: PrivateBus? = nil, config: String = "") throws {
        notifications = sessionBus == nil ? try MockNotificationServer.start() : nil
        systemBus = try PrivateBus()
        logind = try MockLogind(bus: systemBus)
        self.networkManager = networkManager ? try MockNetworkManager(bus: systemBus) : nil
        // No token rate limit: the tests make the stream fail and retry on purpose.
        sandbox = SandboxServer(options: .init(tokenRateLimitPerMinute: 0))
        try sandbox.start()
        var environment = sandbox.agentAccountEnvironment.merging([
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address,
            // The kernel's routes must not move the agent behind the test's back.
            "GIO_USE_NETWORK_MONITOR": networkManager ? "networkmanager" : "base",
        ]) { _, new in new }
        if let sessionBus { environment["DBUS_SESSION_BUS_ADDRESS"] = sessionBus.address }
        agent = try AgentProcess(config: config, environment: environment)
        sandbox.onClientConnected = { [weak self] _ in
            MainActor.assumeIsolated { self?.welcomes.append(Date()) }
        }
        try agent.start()
    }

    func stop() {
        agent.terminate()
        sandbox.stop()
        systemBus.stop()
        notifications?.stop()
    }

    /// Waits until the stream is live and the agent follows logind (its sleep lock is held).
    func waitUntilReady(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(
            LoopWait.until(timeout: 15) { self.sandbox.liveClientCount > 0 && self.logind.agentHoldsSleepLock },
            "agent not ready (live clients \(sandbox.liveClientCount), inhibitors \(logind.inhibitors())):\n\(agent.log)",
            file: file, line: line)
        // The reconcile after the first connect is over, so its REST answers
        // cannot land in the middle of what a test does next.
        XCTAssertTrue(
            LoopWait.until(timeout: 10) { self.agent.log.contains("the reconcile after connecting is over") },
            "no reconcile after connecting:\n\(agent.log)", file: file, line: line)
        if networkManager != nil {
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { self.agent.log.contains("network: following GNetworkMonitorNM") },
                "the agent's network monitor is not NetworkManager's:\n\(agent.log)", file: file, line: line)
        }
    }

    /// Seconds from `start` to the first welcome after it; nil if none within `timeout`.
    func secondsToWelcome(after start: Date, timeout: Double = 10) -> Double? {
        guard LoopWait.until(timeout: timeout, { self.welcomes.contains { $0 >= start } }) else { return nil }
        return welcomes.first { $0 >= start }!.timeIntervalSince(start)
    }

    /// Makes the stream fail (connections dropped, the cached token refused,
    /// the token endpoint answering 503) until the agent waits at least
    /// `seconds` before its next attempt; returns when that attempt is due.
    /// Set `sandbox.failTokenRequests = nil` to let it through again.
    func failUntilBackoff(atLeast seconds: Double, file: StaticString = #filePath, line: UInt = #line) -> Date? {
        sandbox.failTokenRequests = 503
        sandbox.expireTokens()
        sandbox.dropConnections()
        var due: Date?
        let logged = LoopWait.until(timeout: 20) {
            guard let delay = self.lastRetryDelay(), delay >= seconds else { return false }
            due = Date().addingTimeInterval(delay)
            return true
        }
        XCTAssertTrue(
            logged, "the backoff never reached \(seconds) s:\n\(agent.log.suffix(3000))", file: file, line: line)
        return due
    }

    /// The delay of the stream's last "retrying in X s" / "reconnecting in X s" log line.
    func lastRetryDelay() -> Double? {
        let lines = agent.log.split(separator: "\n").filter { $0.contains("Relavoi stream:") && $0.contains(" in ") }
        guard let line = lines.last,
            let range = line.range(of: #"(retrying|reconnecting) in [0-9.]+ s"#, options: .regularExpression)
        else { return nil }
        return Double(line[range].split(separator: " ")[2])
    }

    /// The stream's lines that open a socket or plan an attempt ("connecting
    /// to", "retrying in", "reconnecting ..."), after the last log line that
    /// contains `marker`. The stream logs each as it decides, so this is what
    /// it will do, read without waiting.
    func streamAttempts(afterLast marker: String) -> [String] {
        let log = agent.log
        guard let range = log.range(of: marker, options: .backwards) else { return ["no line with \(marker)"] }
        return log[range.upperBound...].split(separator: "\n").map(String.init).filter {
            $0.contains("Relavoi stream:") && ($0.contains("connecting") || $0.contains("retrying"))
        }
    }

    func session(_ id: String, label: String, state: String = "ACTIVE") {
        sandbox.upsertSession(
            SandboxSession(id: id, proxyNumber: "+15550100", state: state, metadata: ["label": .string(label)]))
    }

    func answer(_ sessionId: String) {
        sandbox.sendEvent(type: "call.answered", payload: ["sessionId": .string(sessionId)])
    }

    /// Waits for a Notify on the test session bus's mock matching `predicate`.
    @discardableResult
    func waitForNotify(
        timeout: Double = MockNotificationServer.notifyWaitTimeout, file: StaticString = #filePath,
        line: UInt = #line, _ predicate: @escaping (MockNotificationServer.NotifyCall) -> Bool
    ) -> MockNotificationServer.NotifyCall? {
        notifications?.waitForNotify(
            timeout: timeout, context: "agent log:\n\(agent.log.suffix(3000))", file: file, line: line, predicate)
    }
}

/// Runs `body` with a harness; stops everything afterwards.
@MainActor
func withDesktopHarness(
    networkManager: Bool = false, sessionBus: PrivateBus? = nil, config: String = "",
    _ body: (DesktopHarness) throws -> Void
) throws {
    let harness = try DesktopHarness(networkManager: networkManager, sessionBus: sessionBus, config: config)
    defer { harness.stop() }
    harness.waitUntilReady()
    try body(harness)
}

/// Prints a measurement so that it shows in the test log.
func report(_ what: String, _ seconds: Double) {
    print(String(format: "session-life: %@ %.3f s", what, seconds))
}
