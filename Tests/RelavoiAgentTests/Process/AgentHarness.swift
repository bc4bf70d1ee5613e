import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import RelavoiXCTestSupport
import XCTest

/// One agent process against an in-process relavoi-sandbox and python3-dbusmock's
/// notification daemon, all on the test's private session bus.
@MainActor
final class AgentHarness {
    let sandbox: SandboxServer
    let mock: MockNotificationServer
    let agent: AgentProcess

    init(
        config: String = "", environment: [String: String] = [:], sandboxOptions: SandboxServer.Options = .init(),
        prepareServer: (MockNotificationServer) -> Void = { _ in }, capabilities: String? = nil,
        configHome: URL? = nil
    ) throws {
        mock = try MockNotificationServer.start(capabilities: capabilities)
        prepareServer(mock)
        sandbox = SandboxServer(options: sandboxOptions)
        try sandbox.start()
        var env = sandbox.agentAccountEnvironment
        for (key, value) in environment { env[key] = value }
        // Verbose: tests wait for the agent's debug lines (a reconcile being over) rather than sleep.
        agent = try AgentProcess(arguments: ["--verbose"], config: config, environment: env, configHome: configHome)
        try agent.start()
    }

    func stop() {
        agent.terminate()
        sandbox.stop()
        mock.stop()
    }

    /// Waits until the agent's stream is live.
    func waitForConnection(timeout: Double = 15) -> Bool {
        LoopWait.until(timeout: timeout) { MainActor.assumeIsolated { self.sandbox.liveClientCount > 0 } }
    }

    /// The sandbox's session `id`; `metadata` is added to its label.
    func session(
        _ id: String, proxy: String = "+15550100", label: String? = "Rider", state: String = "ACTIVE",
        phones: [String] = [], metadata more: [String: JSONValue] = [:]
    ) {
        var metadata = more
        if let label { metadata["label"] = .string(label) }
        sandbox.upsertSession(
            SandboxSession(id: id, proxyNumber: proxy, state: state, metadata: metadata, userPhones: phones))
    }

    func send(_ type: String, _ sessionId: String, _ extra: [String: JSONValue] = [:]) {
        var payload: [String: JSONValue] = ["sessionId": .string(sessionId)]
        for (key, value) in extra { payload[key] = value }
        sandbox.sendEvent(type: type, payload: payload)
    }

    /// agent.conf as it is now ("" when there is none).
    var agentConf: String { (try? String(contentsOf: agent.configFile, encoding: .utf8)) ?? "" }

    /// Waits for a Notify call matching `predicate`; returns it.
    @discardableResult
    func waitForNotify(
        timeout: Double = MockNotificationServer.notifyWaitTimeout, file: StaticString = #filePath,
        line: UInt = #line, _ predicate: @escaping (MockNotificationServer.NotifyCall) -> Bool
    ) -> MockNotificationServer.NotifyCall? {
        mock.waitForNotify(
            timeout: timeout, context: "agent log:\n\(agent.log.suffix(3000))", file: file, line: line, predicate)
    }

    /// Waits until the agent's log holds `text` at least `count` times.
    @discardableResult
    func waitForLog(
        _ text: String, count: Int = 1, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        let ok = agent.waitForLog(text, count: count, timeout: timeout)
        if !ok {
            XCTFail("no \"\(text)\" ×\(count) in the agent's log:\n\(agent.log.suffix(3000))", file: file, line: line)
        }
        return ok
    }

    /// An agent whose notification server answers as Cinnamon 5.6.8, connected
    /// to its stream and past reading that server.
    static func onCinnamon(
        config: String, environment: [String: String] = [:], configHome: URL? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> AgentHarness {
        let h = try AgentHarness(
            config: config, environment: environment,
            prepareServer: { $0.pretend(name: "cinnamon", vendor: "GNOME", version: "5.6.8") }, configHome: configHome)
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)", file: file, line: line)
        h.waitForLog("notification server: cinnamon 5.6.8", file: file, line: line)
        return h
    }
}

extension SandboxServer {
    /// The environment that points an agent at this sandbox's test account.
    var agentAccountEnvironment: [String: String] {
        [
            "RELAVOI_BASE_URL": baseURL, "RELAVOI_API_KEY": options.apiKey,
            "RELAVOI_TENANT_ID": options.tenantId, "RELAVOI_API_SECRET": options.apiSecret,
        ]
    }
}
