import Foundation
import RelavoiGLib
import RelavoiProcFS

/// The reference client (`relavoi-bench ticker`) measured like the agent:
/// CPU per banner update and wakeups, on the same server in the same run.
@MainActor
enum ReferenceTicker {
    static func measure(
        banners: Int, seconds: Double, monitor: BusMonitor, log: String
    ) -> CPUWindow? {
        guard
            let child = try? Child.spawn(
                RunningExecutable.path, ["ticker", "--banners", String(banners)], output: log)
        else { return nil }
        defer { child.stop(timeout: 2) }
        BusWait.pass(2.2)  // connected, first ticks done
        guard child.isRunning else { return nil }
        return CPUWindow.measure(
            probe: ProcessProbe(pid: child.pid), monitor: monitor, agentName: nil, banners: banners, seconds: seconds)
    }
}
