import Foundation
import RelavoiProcFS

/// What /proc says about a process, and what the agent says of itself
/// (`figures`: malloc's bytes in use, GLib sources per context).
struct ProcessStats: CustomStringConvertible {
    /// RSS split into anonymous memory (heap, stacks) and file pages (the binary, libraries), and its peak.
    var memory: ProcessProbe.Memory
    var threads: Int
    var fdKinds: [String: Int]
    /// Voluntary + involuntary context switches so far (each is a wake-up).
    var contextSwitches: Int
    /// User + system CPU time so far, in seconds.
    var cpuSeconds: Double
    /// The agent's `Diagnostics()`; nil if it did not answer.
    var figures: [String: Int64]?

    var rssKiB: Int { memory.rssKiB }
    var rssAnonKiB: Int { memory.anonKiB }
    var rssFileKiB: Int { memory.fileKiB }
    var hwmKiB: Int { memory.peakKiB ?? memory.rssKiB }
    var fds: Int { fdKinds.values.reduce(0, +) }
    var heapInUseKiB: Int? { figures?["heap-in-use-bytes"].map { Int($0 / 1024) } }
    var heapFreeKiB: Int? { figures?["heap-free-bytes"].map { Int($0 / 1024) } }
    var mainSources: Int? { figures?["main-context-sources"].map { Int($0) } }
    var deliverySources: Int? { figures?["delivery-context-sources"].map { Int($0) } }

    static func read(pid: Int32) -> ProcessStats? {
        let probe = ProcessProbe(pid: pid)
        guard let memory = probe.memory(), let fields = probe.status(), let cpu = probe.cpuNanoseconds() else {
            return nil
        }
        return ProcessStats(
            memory: memory, threads: fields["Threads"] ?? 0, fdKinds: probe.fileDescriptorKinds(),
            contextSwitches: (fields["voluntary_ctxt_switches"] ?? 0) + (fields["nonvoluntary_ctxt_switches"] ?? 0),
            cpuSeconds: Double(cpu) / 1e9)
    }

    var fdSummary: String { fdKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }

    var description: String {
        var text =
            "RSS \(Self.mib(rssKiB)) MiB (anonymous \(Self.mib(rssAnonKiB)), file \(Self.mib(rssFileKiB)); peak \(Self.mib(hwmKiB))), \(threads) threads, \(fds) fds (\(fdSummary))"
        if let heapInUseKiB, let heapFreeKiB, let mainSources, let deliverySources {
            text += "; malloc in use \(Self.mib(heapInUseKiB)) MiB, free in its arenas \(Self.mib(heapFreeKiB)) MiB"
            text += "; GLib sources \(mainSources) main + \(deliverySources) delivery"
        } else {
            text += "; the agent did not answer Diagnostics()"
        }
        return text
    }

    static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
