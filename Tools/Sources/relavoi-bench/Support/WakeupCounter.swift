import Foundation
import RelavoiProcFS

/// Counts a process's wakeups over a window: voluntary context switches of
/// every thread (each sleep that ends is one). Threads are sampled while the
/// window runs, so one that exits half-way still counts up to its last sample.
struct WakeupCounter {
    private let probe: ProcessProbe
    private var baseline: [Int: Int] = [:]
    private var involuntaryBaseline: [Int: Int] = [:]
    private var latest: [Int: ProcessProbe.ThreadSample] = [:]

    init(probe: ProcessProbe) {
        self.probe = probe
        for thread in probe.threads() {
            baseline[thread.tid] = thread.voluntary
            involuntaryBaseline[thread.tid] = thread.involuntary
            latest[thread.tid] = thread
        }
    }

    mutating func sample() {
        for thread in probe.threads() {
            if baseline[thread.tid] == nil { baseline[thread.tid] = 0 }
            latest[thread.tid] = thread
        }
    }

    /// Wakeups per thread name (threads of one name summed), since `init`.
    func byThread() -> [String: Int] {
        var result: [String: Int] = [:]
        for (tid, thread) in latest {
            let delta = thread.voluntary - (baseline[tid] ?? 0)
            if delta > 0 { result[Self.label(thread.name), default: 0] += delta }
        }
        return result
    }

    var total: Int { byThread().values.reduce(0, +) }

    /// Involuntary context switches since `init`: the scheduler took the CPU away.
    var preemptions: Int {
        latest.reduce(0) { sum, entry in sum + max(0, entry.value.involuntary - (involuntaryBaseline[entry.key] ?? 0)) }
    }

    /// libdispatch names its threads after the queue, cut to 15 bytes.
    static func label(_ name: String) -> String {
        if name.contains("qos") || name.hasPrefix("com.apple") { return "libdispatch:" + name }
        return name
    }
}
