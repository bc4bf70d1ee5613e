import Foundation
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// The first run as a new user has it: `relavoi-agent login` in a terminal
/// against relavoi-sandbox, then the agent with nothing but what login saved.
final class LoginTerminalTests: XCTestCase {
    func testLoginInATerminalThenTheAgentConnects() throws {
        try MainActor.assumeIsolated { try Self.loginInATerminalThenTheAgentConnects() }
    }

    func testRefusedPairAndUnreachableServerSaveNothing() throws {
        try MainActor.assumeIsolated { try Self.refusedPairAndUnreachableServerSaveNothing() }
    }

    @MainActor
    private static func loginInATerminalThenTheAgentConnects() throws {
        let keyring = try TestKeyring.start()
        defer { keyring.stop() }
        let sandbox = SandboxServer()
        try sandbox.start()
        defer { sandbox.stop() }
        let account = sandbox.options

        let terminal = try PseudoTerminal()
        let login = try AgentProcess(arguments: ["login", "--base-url", sandbox.baseURL], config: nil)
        let slave = try terminal.slaveHandle()
        login.process.standardInput = slave
        login.process.standardOutput = slave
        login.process.standardError = slave
        try login.start()
        try slave.close()
        defer { if login.process.isRunning { login.signal(SIGKILL) } }
        func transcript() -> String { "terminal:\n\(terminal.output)" }

        XCTAssertTrue(terminal.wait(for: "Relavoi API key: "), transcript())
        terminal.type(account.apiKey + "\n")
        XCTAssertTrue(terminal.wait(for: "Relavoi API secret (not shown): "), transcript())
        // Typed only once echo is off (login flushes what was typed before).
        XCTAssertTrue(terminal.wait(timeout: 10) { _ in !terminal.echoes }, "echo stays on for the secret")
        terminal.type(account.apiSecret + "\n")
        XCTAssertTrue(terminal.wait(for: "The key and secret work: tenant \(account.tenantId)."), transcript())
        XCTAssertTrue(terminal.wait(for: "Your phone number for call verification"), transcript())
        terminal.type("12345\n")
        XCTAssertTrue(terminal.wait(for: "that is not an E.164 number"), transcript())
        XCTAssertTrue(terminal.wait(for: "Your phone number for call verification", count: 2), transcript())
        terminal.type("+234 801 111 2222\n")
        XCTAssertTrue(terminal.wait(for: "Start the agent:"), transcript())
        XCTAssertEqual(login.waitForExit(timeout: 30), 0, transcript())

        let configPath = login.configFile.path
        let output = terminal.output
        XCTAssertTrue(output.contains(account.apiKey), "the key is echoed as typed")
        XCTAssertFalse(output.contains(account.apiSecret), "the secret is never echoed or printed")
        XCTAssertTrue(output.contains("Saved api-key, tenant-id, user-phone, base-url in \(configPath)."), output)
        XCTAssertTrue(output.contains("Stored the API secret in the keyring"), output)
        XCTAssertEqual(sandbox.tokenRequestCount, 1, "one check")
        let saved = try KeyFileText.load(configPath)["agent"] ?? [:]
        XCTAssertEqual(
            saved,
            [
                "api-key": account.apiKey, "tenant-id": account.tenantId, "user-phone": "+2348011112222",
                "base-url": sandbox.baseURL,
            ])
        XCTAssertFalse(try String(contentsOfFile: configPath, encoding: .utf8).contains(account.apiSecret))

        // The agent, with nothing but what login saved (RELAVOI_* are cleared).
        let agent = try AgentProcess(environment: ["XDG_CONFIG_HOME": login.configHome.path])
        try agent.start()
        defer { agent.terminate() }
        let connected = LoopWait.until(timeout: 30) {
            MainActor.assumeIsolated { sandbox.liveClientCount > 0 } && agent.log.contains("stream connected")
        }
        XCTAssertTrue(connected, "agent log:\n\(agent.log.suffix(3000))")
        XCTAssertTrue(agent.log.contains("API secret from keyring"), agent.log)
        XCTAssertFalse(agent.log.contains(account.apiSecret))
    }

    /// A wrong pair and an unreachable server are said at once; nothing is saved.
    @MainActor
    private static func refusedPairAndUnreachableServerSaveNothing() throws {
        let sandbox = SandboxServer()
        try sandbox.start()
        defer { sandbox.stop() }
        let wrongSecret = "rs_" + String(repeating: "ab", count: 32)

        let refused = try Self.startLogin(baseURL: sandbox.baseURL, answers: [sandbox.options.apiKey, wrongSecret])
        XCTAssertEqual(refused.waitForExit(timeout: 30), 3, refused.log)
        XCTAssertTrue(
            refused.log.contains("refused this API key and secret (HTTP 401); nothing was saved"), refused.log)
        XCTAssertFalse(refused.log.contains(wrongSecret))
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused.configHome.path + "/relavoi/agent.conf"))

        // A port nothing listens on: the sandbox's, once it is stopped.
        let deadURL = sandbox.baseURL
        sandbox.stop()
        let unreachable = try Self.startLogin(
            baseURL: deadURL, answers: [sandbox.options.apiKey, sandbox.options.apiSecret])
        XCTAssertEqual(unreachable.waitForExit(timeout: 60), 4, unreachable.log)
        XCTAssertTrue(unreachable.log.contains("cannot reach \(deadURL)"), unreachable.log)
        XCTAssertTrue(unreachable.log.contains("use --offline"), unreachable.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: unreachable.configHome.path + "/relavoi/agent.conf"))
    }

    /// `relavoi-agent login --base-url URL` without a terminal, its answers
    /// given as lines on stdin (then closed).
    private static func startLogin(baseURL: String, answers: [String]) throws -> AgentProcess {
        let login = try AgentProcess(arguments: ["login", "--base-url", baseURL], config: nil)
        let input = Pipe()
        login.process.standardInput = input
        try login.start()
        input.fileHandleForWriting.write(Data(answers.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        return login
    }
}
