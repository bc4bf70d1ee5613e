import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiProcFS
import RelavoiSandboxKit

/// An agent that follows two proxy numbers, fed what a busy tenant sends:
/// 10,000 sessions (memory per tracked session), then the firehose (CPU per frame).
@MainActor
struct TenantLoad {
    struct Sessions: Codable, Equatable {
        var sent: Int
        /// The agent keeps at most this many (its SessionDirectory capacity).
        var kept: Int
        var before: ProcessProbe.Memory
        var after: ProcessProbe.Memory
        var bytesPerSessionSent: Double { Double(after.rssKiB - before.rssKiB) * 1024 / Double(sent) }
        var bytesPerSessionKept: Double { Double(after.rssKiB - before.rssKiB) * 1024 / Double(max(1, kept)) }
    }

    struct Firehose: Codable, Equatable {
        var frames: Int
        var followedCalls: Int
        var cpuMilliseconds: Double
        var wallSeconds: Double
        /// The agent's wakeups (voluntary context switches, all threads) meanwhile:
        /// the fewer, the more frames each read of the socket brings.
        var wakeups: Int?
        /// Times the agent's threads were preempted (involuntary context switches).
        var preemptions: Int?
        /// The whole machine meanwhile: busy and stolen (hypervisor) CPU time, in
        /// percent of all its CPU time, and the 1-minute load average after.
        var machineBusyPercent: Double?
        var machineStealPercent: Double?
        var loadAverage: Double?
        var framesPerWakeup: Double? { wakeups.map { Double(frames) / Double(max(1, $0)) } }
        var framesPerCPUSecond: Double { Double(frames) / (cpuMilliseconds / 1000) }
        var cpuPerFrameMicroseconds: Double { cpuMilliseconds * 1000 / Double(frames) }
    }

    let monitor: BusMonitor
    let sandbox: SandboxServer
    let probe: ProcessProbe
    private var frames: FrameFactory
    private var markers = 0

    init(monitor: BusMonitor, sandbox: SandboxServer, probe: ProcessProbe) {
        self.monitor = monitor
        self.sandbox = sandbox
        self.probe = probe
        frames = FrameFactory(tenantId: sandbox.options.tenantId, prefix: "load")
    }

    /// A call on the second followed number; returns once its banner reached
    /// the server, so every frame sent before has been handled.
    mutating func marker(end: Bool) -> Bool {
        markers += 1
        let id = "marker_\(markers)"
        let proxy = FirehoseFrames.followedProxies[1]
        var cursor = monitor.notifyCount
        var closeCursor = monitor.closeCount
        sandbox.send(text: frames.envelope("session.created", [("sessionId", id), ("proxyNumber", proxy)]))
        sandbox.send(text: frames.envelope("call.incoming", [("sessionId", id), ("proxyNumber", proxy)]))
        guard let shown = BusWait.notify(monitor, cursor: &cursor, timeout: 120, where: { $0.body.contains(proxy) })
        else {
            return false
        }
        guard end else { return true }
        sandbox.send(text: frames.envelope("call.ended", [("sessionId", id)]))
        return BusWait.close(monitor, cursor: &closeCursor, timeout: 10, from: shown.sender) != nil
    }

    mutating func sessions(count: Int) -> Sessions? {
        guard marker(end: true) else { return nil }
        BusWait.pass(0.5)
        guard let before = probe.memory() else { return nil }
        for index in 0..<count {
            sandbox.send(
                text: frames.envelope(
                    "session.created",
                    [("sessionId", "trk_\(index)"), ("proxyNumber", FirehoseFrames.otherProxy(index))]))
            if index % 500 == 499 { BusWait.drain() }
        }
        guard marker(end: true) else { return nil }
        BusWait.pass(0.5)
        guard let after = probe.memory() else { return nil }
        return Sessions(sent: count, kept: min(count, SessionDirectory().capacity), before: before, after: after)
    }

    mutating func firehose(_ load: FirehoseFrames) -> Firehose? {
        var wakeups = WakeupCounter(probe: probe)
        let machineStart = SystemCPU.now()
        guard let cpuStart = probe.cpuNanoseconds() else { return nil }
        let start = Clock.now()
        for (index, frame) in load.frames.enumerated() {
            sandbox.send(text: frame)
            if index % 500 == 499 { BusWait.drain() }
        }
        guard marker(end: false), let cpuEnd = probe.cpuNanoseconds() else { return nil }
        wakeups.sample()
        let machine = machineStart.flatMap { start in SystemCPU.now()?.percent(since: start) }
        let loadAverage = (ProcFile.read("/proc/loadavg") ?? "").split(separator: " ").first.flatMap { Double($0) }
        return Firehose(
            frames: load.frames.count, followedCalls: load.followedCalls,
            cpuMilliseconds: Double(cpuEnd - cpuStart) / 1e6, wallSeconds: Double(Clock.now() - start) / 1e9,
            wakeups: wakeups.total, preemptions: wakeups.preemptions, machineBusyPercent: machine?.busy,
            machineStealPercent: machine?.steal, loadAverage: loadAverage)
    }
}
