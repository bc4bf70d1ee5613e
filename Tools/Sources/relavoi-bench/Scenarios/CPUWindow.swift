import Foundation
import RelavoiProcFS

/// The agent's CPU time and wakeups over a stretch of wall time, with the
/// banner updates the bus saw from it meanwhile.
struct CPUWindow: Codable, Equatable {
    var banners: Int
    var seconds: Double
    var cpuMilliseconds: Double
    /// Notify calls from the agent inside the window.
    var updates: Int
    var wakeups: Int
    var wakeupsByThread: [String: Int]
    var memory: ProcessProbe.Memory?

    var cpuPerSecondMicroseconds: Double { cpuMilliseconds * 1000 / seconds }
    var cpuPerBannerSecondMicroseconds: Double? { banners > 0 ? cpuPerSecondMicroseconds / Double(banners) : nil }
    var cpuPerUpdateMicroseconds: Double? { updates > 0 ? cpuMilliseconds * 1000 / Double(updates) : nil }
    var wakeupsPerSecond: Double { Double(wakeups) / seconds }

    /// Measures `seconds` of whatever the agent is doing now.
    @MainActor
    static func measure(
        probe: ProcessProbe, monitor: BusMonitor, agentName: String?, banners: Int, seconds: Double
    ) -> CPUWindow? {
        var counter = WakeupCounter(probe: probe)
        let cursor = monitor.notifyCount
        guard let cpuStart = probe.cpuNanoseconds() else { return nil }
        let start = Clock.now()
        BusWait.pass(seconds, period: 0.25) { counter.sample() }
        guard let cpuEnd = probe.cpuNanoseconds() else { return nil }
        let end = Clock.now()
        counter.sample()
        let updates = monitor.notifies(from: cursor).filter {
            $0.time >= start && $0.time <= end && (agentName == nil || $0.sender == agentName)
        }.count
        return CPUWindow(
            banners: banners, seconds: Double(end - start) / 1e9, cpuMilliseconds: Double(cpuEnd - cpuStart) / 1e6,
            updates: updates, wakeups: counter.total, wakeupsByThread: counter.byThread(), memory: probe.memory())
    }
}
