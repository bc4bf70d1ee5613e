import Foundation
import RelavoiProcFS
import RelavoiSandboxKit

/// The release `relavoi-agent` as a child process, pointed at the
/// benchmark's sandbox (or at its own with `--demo`), with its own
/// XDG_CONFIG_HOME holding an agent.conf.
@MainActor
final class AgentProcess {
    let child: Child
    let probe: ProcessProbe
    let spawnedAt: UInt64
    private let home: String

    /// - Parameters:
    ///   - settings: `[agent]` lines of agent.conf, e.g. `max-banners = 10`.
    ///   - sandbox: the stream and REST server; nil for `--demo`.
    static func start(
        binary: String, settings: [String], sandbox: SandboxServer?, arguments: [String] = [], log: String
    ) throws -> AgentProcess {
        let home = NSTemporaryDirectory() + "relavoi-bench-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(
            atPath: home + "/relavoi", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try ("[agent]\n" + settings.joined(separator: "\n") + "\n").write(
            toFile: home + "/relavoi/agent.conf", atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RELAVOI_") }
        environment["XDG_CONFIG_HOME"] = home
        environment.removeValue(forKey: "G_MESSAGES_DEBUG")
        if let sandbox {
            environment["RELAVOI_BASE_URL"] = sandbox.baseURL
            environment["RELAVOI_API_KEY"] = sandbox.options.apiKey
            environment["RELAVOI_TENANT_ID"] = sandbox.options.tenantId
            environment["RELAVOI_API_SECRET"] = sandbox.options.apiSecret
        }
        let start = Clock.now()
        let child = try Child.spawn(binary, arguments, environment: environment, output: log)
        return AgentProcess(child: child, spawnedAt: start, home: home)
    }

    private init(child: Child, spawnedAt: UInt64, home: String) {
        self.child = child
        self.probe = ProcessProbe(pid: child.pid)
        self.spawnedAt = spawnedAt
        self.home = home
    }

    /// SIGTERM (the agent closes its banners), SIGKILL if it hangs.
    func stop() {
        child.stop(timeout: 5)
        try? FileManager.default.removeItem(atPath: home)
    }
}
