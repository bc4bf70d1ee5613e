import Foundation
import RelavoiSandboxKit

/// Start-up: process start to the stream's `connected` frame (the sandbox
/// sending its welcome), and to the first banner of `--demo`.
@MainActor
enum Startup {
    /// Starts the agent and waits for its welcome; the time in ms, or nil.
    static func connected(
        binary: String, settings: [String], sandbox: SandboxServer, log: String
    ) throws -> (MeasuredAgent, Double?) {
        final class Box { var time: UInt64? }
        let box = Box()
        sandbox.onClientConnected = { _ in box.time = box.time ?? Clock.now() }
        defer { sandbox.onClientConnected = nil }
        let agent = try MeasuredAgent.start(binary: binary, settings: settings, sandbox: sandbox, log: log)
        BusWait.passUntil(timeout: 15) { box.time != nil || !agent.isRunning }
        return (agent, box.time.map { Clock.milliseconds(agent.spawnedAt, $0) })
    }

    /// `relavoi-agent --demo` until its first Notify; the time in ms, or nil.
    /// The demo script rings `demoRingDelay` seconds after the stream is live.
    static func demoFirstBanner(binary: String, monitor: BusMonitor, exclude: String, log: String) throws -> Double? {
        var cursor = monitor.notifyCount
        let agent = try MeasuredAgent.start(binary: binary, settings: [], sandbox: nil, arguments: ["--demo"], log: log)
        defer { agent.stop() }
        let first = BusWait.notify(monitor, cursor: &cursor, timeout: 20) {
            $0.sender != exclude && $0.time > agent.spawnedAt
        }
        return first.map { Clock.milliseconds(agent.spawnedAt, $0.time) }
    }

    /// DemoScenario.script rings 1 s after the stream is live (ringAt: 1).
    nonisolated static let demoRingDelay = 1.0
}
