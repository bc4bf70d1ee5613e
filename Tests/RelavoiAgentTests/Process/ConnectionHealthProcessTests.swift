import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// Issue 26 on the real binary: when calls cannot show (offline, refused, not
/// set up) the person is told once, and the notice closes when the cause goes.
/// `offline-notice-after = 3` shortens the two minutes before offline is told.
final class ConnectionHealthProcessTests: XCTestCase {
    static let offlineSummary = "Offline since "
    static let refusedSummary = "Relavoi refused this computer's API key"
    static let notSetUpSummary = "Relavoi calls cannot show: not set up"

    /// The server gone: one low-urgency notice saying since when, the same
    /// state in `Health` and `ctl status`; the server back: the notice closes.
    func testAnOutageIsToldOnceAndClosesOnReconnect() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(config: "offline-notice-after = 3")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            let port = h.sandbox.port
            h.sandbox.stop()
            let offline = h.waitForNotify { $0.summary.hasPrefix(Self.offlineSummary) }
            XCTAssertTrue(offline?.summary.hasSuffix(": calls will not show") == true, offline?.summary ?? "")
            XCTAssertEqual(offline?.hints["category"], "network.disconnected")
            XCTAssertEqual(offline?.hints["urgency"], "byte 0x00", "offline is not urgent")

            let (state, since) = try Self.healthProperty()
            XCTAssertEqual(state, "offline")
            XCTAssertGreaterThan(since, 0)
            let (status, output) = try AgentProcess.run(arguments: ["ctl", "status"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("connected: no\n"), output)
            XCTAssertTrue(output.contains("health: offline since "), output)

            _ = try h.sandbox.start(port: port)
            XCTAssertTrue(h.waitForConnection(timeout: 60), "no reconnect:\n\(h.agent.log.suffix(3000))")
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { !h.mock.closeCalls().isEmpty },
                "the notice stays after the reconnect:\n\(h.agent.log.suffix(3000))")
            h.waitForLog("connection health: connected")
            XCTAssertEqual(
                h.mock.notifyCalls().filter { $0.summary.hasPrefix(Self.offlineSummary) }.count, 1, "told once")
            XCTAssertEqual(try Self.healthProperty().state, "connected")
        }
    }

    /// A wrong secret: one notice naming the fix at once, and none again when
    /// the token endpoint refuses it a second time.
    func testAWrongSecretIsToldOnceNamingLogin() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(environment: ["RELAVOI_API_SECRET": "rs_" + String(repeating: "f", count: 64)])
            defer { h.stop() }
            let refused = h.waitForNotify { $0.summary == Self.refusedSummary }
            XCTAssertTrue(refused?.body.contains("relavoi-agent login") == true, refused?.body ?? "")
            XCTAssertEqual(refused?.hints["urgency"], "byte 0x01")
            let (status, output) = try AgentProcess.run(arguments: ["ctl", "status"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("health: refused since "), output)
            XCTAssertEqual(try Self.healthProperty().state, "refused")
            // The SDK asks again after its 60 s wait and is refused again: nothing new is shown.
            h.waitForLog("token request still refused", timeout: 120)
            XCTAssertEqual(h.mock.notifyCalls().filter { $0.summary == Self.refusedSummary }.count, 1)
            XCTAssertEqual(h.mock.notifyCalls().count, 1, "\(h.mock.notifyCalls().map(\.summary))")
            XCTAssertTrue(h.mock.closeCalls().isEmpty, "it lasts while the problem does")
        }
    }

    /// No account at all: the agent keeps running and says so; once agent.conf
    /// has the account (as `login` writes it) it takes it in place, connects,
    /// and the notice goes.
    func testNoCredentialsIsToldAndLoginIsPickedUp() throws {
        try withMockAndSandbox { mock, sandbox in
            let agent = try Self.notSetUpAgent(sandbox)
            defer { agent.terminate() }
            let notice = mock.waitForNotify(context: agent.log) { $0.summary == Self.notSetUpSummary }
            XCTAssertTrue(notice?.body.contains("relavoi-agent login") == true, notice?.body ?? "")
            XCTAssertTrue(agent.waitForLog("not set up: waiting for `relavoi-agent login`"), agent.log)
            XCTAssertTrue(agent.process.isRunning, "not set up is no reason to exit:\n\(agent.log)")
            XCTAssertEqual(try Self.healthProperty().state, "not-set-up")
            let (status, output) = try AgentProcess.run(arguments: ["ctl", "status"])
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.hasSuffix("health: not-set-up\n") || output.hasSuffix("health: not-set-up"), output)

            let ownerBefore = try Self.agentNameOwner()
            try "[agent]\napi-key = \(sandbox.options.apiKey)\ntenant-id = \(sandbox.options.tenantId)\n".write(
                to: agent.configFile, atomically: true, encoding: .utf8)
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { sandbox.liveClientCount > 0 },
                "the credentials were not picked up:\n\(agent.log.suffix(3000))")
            XCTAssertTrue(agent.log.contains("credentials changed: taking them in place"), agent.log)
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { (try? Self.healthProperty().state) == "connected" },
                "Health says connected")
            // Taken in place: the same process holds the bus name on the same connection
            // (starting again, even by exec, would come back under a new unique name).
            XCTAssertEqual(try Self.agentNameOwner(), ownerBefore)
            XCTAssertFalse(mock.closeCalls().isEmpty, "the not-set-up notice closed")
            XCTAssertTrue(agent.process.isRunning)
        }
    }

    /// A refused secret, then `login` with the right one (the secret, then
    /// agent.conf written again): the running agent takes it in place and
    /// the stream connects with it, on the same bus connection.
    func testANewSecretAfterARefusalIsTakenInPlace() throws {
        try withMockAndSandbox { mock, sandbox in
            let directory = try TemporaryDirectory()
            let secretFile = try directory.file("secret", "rs_wrong_secret_for_this_test")
            let config = """
                base-url = \(sandbox.baseURL)
                api-key = \(sandbox.options.apiKey)
                tenant-id = \(sandbox.options.tenantId)
                api-secret-file = \(secretFile)
                """
            let agent = try AgentProcess(arguments: ["--verbose"], config: config)
            try agent.start()
            defer { agent.terminate() }
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { (try? Self.healthProperty().state) == "refused" },
                "Health says refused:\n\(agent.log.suffix(3000))")
            let ownerBefore = try Self.agentNameOwner()

            try directory.file("secret", sandbox.options.apiSecret)
            try "[agent]\n\(config)\n".write(to: agent.configFile, atomically: true, encoding: .utf8)
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { (try? Self.healthProperty().state) == "connected" },
                "the new secret was not taken:\n\(agent.log.suffix(3000))")
            XCTAssertTrue(agent.log.contains("credentials changed: taking them in place"), agent.log)
            XCTAssertEqual(sandbox.liveClientCount, 1)
            XCTAssertEqual(try Self.agentNameOwner(), ownerBefore)
            XCTAssertFalse(agent.log.contains(sandbox.options.apiSecret), "the secret is never logged")
        }
    }

    /// agent.conf rewritten unchanged while the keyring cannot answer (here it is
    /// gone; locked or slow is the same): the same account, so not a sign-out,
    /// and the secret in use stays.
    func testAKeyringThatCannotAnswerIsNotASignOut() throws {
        try withMockAndSandbox { _, sandbox in
            let keyring = try TestKeyring.start()
            defer { keyring.stop() }
            try Keyring.store(
                secret: APISecret(sandbox.options.apiSecret), apiKey: sandbox.options.apiKey,
                label: "Relavoi API secret (test)", timeout: 10)
            let config = """
                base-url = \(sandbox.baseURL)
                api-key = \(sandbox.options.apiKey)
                tenant-id = \(sandbox.options.tenantId)
                """
            let agent = try AgentProcess(arguments: ["--verbose"], config: config)
            try agent.start()
            defer { agent.terminate() }
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { (try? Self.healthProperty().state) == "connected" },
                "connected with the keyring's secret:\n\(agent.log.suffix(3000))")

            keyring.stop()
            try "[agent]\n\(config)\n".write(to: agent.configFile, atomically: true, encoding: .utf8)
            XCTAssertTrue(agent.waitForLog("the keyring gave no secret; the one in use stays"), agent.log)
            XCTAssertFalse(agent.log.contains("the account was removed"), agent.log)
            XCTAssertEqual(try Self.healthProperty().state, "connected")
            XCTAssertEqual(sandbox.liveClientCount, 1)
        }
    }

    /// The not-set-up notice's "Sign in" opens the Relavoi window on its Sign in page
    /// (`app.show-page` over D-Bus, here a stand-in window), as a click on the button does.
    func testSignInOnTheNoticeOpensTheWindowOnSignIn() throws {
        try withMockAndSandbox(capabilities: "body actions") { mock, sandbox in
            let window = try StandInSettingsWindow()
            defer { window.stop() }
            let agent = try Self.notSetUpAgent(sandbox)
            defer { agent.terminate() }
            let notice = mock.waitForNotify(context: agent.log) { $0.summary == Self.notSetUpSummary }
            XCTAssertEqual(notice?.actions, ["sign-in", "Sign in"], "one button")
            guard let id = mock.notifyCalls().firstIndex(where: { $0.summary == Self.notSetUpSummary }) else { return }
            // dbusmock numbers notifications from 1 in the order they came.
            mock.emitActionInvoked(id: UInt32(id + 1), action: "sign-in", token: "t")
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { window.pagesAsked() == ["sign-in"] },
                "the window was asked for Sign in: \(window.pagesAsked())\n\(agent.log.suffix(3000))")
            XCTAssertTrue(agent.process.isRunning)
        }
    }

    /// An agent with the secret alone (the keyring's part of login): no key, no
    /// tenant, so not set up. The caller terminates it.
    @MainActor
    static func notSetUpAgent(_ sandbox: SandboxServer) throws -> AgentProcess {
        let agent = try AgentProcess(
            arguments: ["--verbose"], config: nil,
            environment: ["RELAVOI_BASE_URL": sandbox.baseURL, "RELAVOI_API_SECRET": sandbox.options.apiSecret])
        try agent.start()
        return agent
    }

    /// The unique name that owns `com.relavoi.Agent`.
    @MainActor
    static func agentNameOwner() throws -> String {
        let client = try BusTestClient(destination: "org.freedesktop.DBus")
        let reply = client.call(
            "GetNameOwner", Args.tuple([Args.s(AgentBus.name)]), interface: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus")
        return Args.printed(reply.value)
    }

    /// `Health` as a panel reads it: (state, since in unix milliseconds).
    @MainActor
    static func healthProperty() throws -> (state: String, since: Int64) {
        let client = try BusTestClient(destination: AgentBus.name)
        let reply = client.call(
            "Get", Args.tuple([Args.s(AgentBus.interface), Args.s("Health")]),
            interface: "org.freedesktop.DBus.Properties")
        let text = Args.printed(reply.value)
        // (<{'state': <'offline'>, 'since': <int64 1750000000250>}>,)
        let state = text.components(separatedBy: "'state': <'").dropFirst().first?.prefix { $0 != "'" } ?? ""
        let since = text.components(separatedBy: "'since': <int64 ").dropFirst().first?.prefix { $0 != ">" } ?? ""
        return (String(state), Int64(since) ?? 0)
    }

    /// The tray item says what `Health` says: quiet while connected, the offline line
    /// (Active, never NeedsAttention) while the server is gone, quiet again after.
    func testTheTrayItemAndHealthSayTheSame() throws {
        try MainActor.assumeIsolated {
            let watcher = try WatcherStandIn()
            XCTAssertTrue(LoopWait.until(timeout: 10) { watcher.ownsName }, "the stand-in owns the watcher name")
            let h = try AgentHarness(config: "offline-notice-after = 3")
            defer {
                h.stop()
                watcher.stop()
            }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            XCTAssertTrue(LoopWait.until(timeout: 15) { !watcher.registrations.isEmpty }, "the item registered")
            let client = try BusTestClient(destination: watcher.registrations[0].service)
            typealias Tray = AgentTrayItemTests
            XCTAssertEqual(Tray.property(client, "Status"), "(<'Passive'>,)", "nothing while connected")

            let port = h.sandbox.port
            h.sandbox.stop()
            Tray.waitFor(client, "Status", "offline", log: h.agent.log) { $0 == "(<'Active'>,)" }
            let title = Tray.property(client, "Title")
            XCTAssertTrue(
                title.hasPrefix("(<'Offline since ") && title.hasSuffix(": calls will not show'>,)"), title)
            XCTAssertEqual(Tray.property(client, "IconName"), "(<'com.relavoi.Agent-unavailable'>,)")
            XCTAssertEqual(try Self.healthProperty().state, "offline", "the tray and Health agree")

            _ = try h.sandbox.start(port: port)
            Tray.waitFor(client, "Status", "connected again", timeout: 90, log: h.agent.log) {
                $0 == "(<'Passive'>,)"
            }
            XCTAssertEqual(try Self.healthProperty().state, "connected", "the tray and Health agree")
        }
    }
}

/// Runs `body` with python3-dbusmock's notification server and the sandbox
/// started (no agent: the test starts its own); stops both afterwards.
private func withMockAndSandbox(
    capabilities: String? = nil, _ body: @MainActor (MockNotificationServer, SandboxServer) throws -> Void
) throws {
    try MainActor.assumeIsolated {
        let mock = try MockNotificationServer.start(capabilities: capabilities)
        defer { mock.stop() }
        let sandbox = SandboxServer()
        try sandbox.start()
        defer { sandbox.stop() }
        try body(mock, sandbox)
    }
}
