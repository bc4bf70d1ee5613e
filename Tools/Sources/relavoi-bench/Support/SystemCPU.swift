import Foundation
import RelavoiGLib

/// The machine's CPU time by kind (/proc/stat's `cpu` line, clock ticks):
/// how busy the other processes kept it, and how much the hypervisor took
/// (steal), over a stretch of the benchmark.
struct SystemCPU {
    var busy: UInt64
    var steal: UInt64
    var total: UInt64

    static func now() -> SystemCPU? {
        guard let stat = ProcFile.read("/proc/stat"),
            let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is already in user)
        let ticks = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
        guard ticks.count == 8 else { return nil }
        let idle = ticks[3] + ticks[4]
        let total = ticks.reduce(0, +)
        return SystemCPU(busy: total - idle - ticks[7], steal: ticks[7], total: total)
    }

    /// Share of the machine's CPU time since `earlier` that was busy (any
    /// process, this benchmark's too) and stolen, in percent.
    func percent(since earlier: SystemCPU) -> (busy: Double, steal: Double)? {
        let total = Double(self.total - earlier.total)
        guard total > 0 else { return nil }
        return (Double(busy - earlier.busy) / total * 100, Double(steal - earlier.steal) / total * 100)
    }
}
