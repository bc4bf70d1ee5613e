import Foundation
import RelavoiProcFS
import RelavoiSandboxKit
import RelavoiTestSupport

/// The release `relavoi-agent` as the benchmark runs it: started through the
/// tests' harness (`AgentProcess`, its own XDG_CONFIG_HOME holding an
/// agent.conf), pointed at the benchmark's sandbox (or at its own with
/// `--demo`), with the /proc probe the figures come from.
@MainActor
final class MeasuredAgent {
    let process: AgentProcess
    let probe: ProcessProbe
    /// `Clock.now()` just before the spawn (start-up figures count from it).
    let spawnedAt: UInt64

    /// - Parameters:
    ///   - settings: `[agent]` lines of agent.conf, e.g. `max-banners = 10`.
    ///   - sandbox: the stream and REST server; nil for `--demo`.
    static func start(
        binary: String, settings: [String], sandbox: SandboxServer?, arguments: [String] = [], log: String
    ) throws -> MeasuredAgent {
        var environment: [String: String] = [:]
        if let sandbox {
            environment["RELAVOI_BASE_URL"] = sandbox.baseURL
            environment["RELAVOI_API_KEY"] = sandbox.options.apiKey
            environment["RELAVOI_TENANT_ID"] = sandbox.options.tenantId
            environment["RELAVOI_API_SECRET"] = sandbox.options.apiSecret
        }
        let process = try AgentProcess(
            executable: binary, arguments: arguments, config: settings.joined(separator: "\n"),
            environment: environment, logURL: URL(fileURLWithPath: log), debugMessages: false)
        let start = Clock.now()
        try process.start()
        return MeasuredAgent(process: process, spawnedAt: start)
    }

    private init(process: AgentProcess, spawnedAt: UInt64) {
        self.process = process
        self.probe = ProcessProbe(pid: process.processIdentifier)
        self.spawnedAt = spawnedAt
    }

    var isRunning: Bool { process.isRunning }

    /// SIGTERM (the agent closes its banners), SIGKILL if it hangs.
    func stop() { process.stop(timeout: 5) }
}
