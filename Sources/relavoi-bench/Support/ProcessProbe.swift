import Foundation

/// What the kernel says about another process: CPU time, memory, threads.
struct ProcessProbe {
    struct Memory: Codable, Equatable {
        /// VmRSS, RssAnon, RssFile (KiB) and Pss from smaps_rollup.
        var rssKiB: Int
        var anonKiB: Int
        var fileKiB: Int
        var pssKiB: Int
    }

    struct ThreadSample: Equatable {
        var tid: Int
        var name: String
        var voluntary: Int
        var involuntary: Int
    }

    let pid: pid_t

    /// CPU time of all threads, dead ones included (the process CPU clock, ns resolution).
    func cpuNanoseconds() -> UInt64? {
        var clock = clockid_t(0)
        var ts = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &ts) == 0 else { return ticksFallback() }
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// utime + stime from /proc/PID/stat (clock ticks).
    private func ticksFallback() -> UInt64? {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return (user + system) * 1_000_000_000 / UInt64(sysconf(Int32(_SC_CLK_TCK)))
    }

    func memory() -> Memory? {
        guard let status = ProcFile.read("/proc/\(pid)/status") else { return nil }
        let fields = ProcFile.fields(status)
        guard let rss = fields["VmRSS"] else { return nil }
        let pss = ProcFile.read("/proc/\(pid)/smaps_rollup").flatMap { ProcFile.fields($0)["Pss"] } ?? 0
        return Memory(rssKiB: rss, anonKiB: fields["RssAnon"] ?? 0, fileKiB: fields["RssFile"] ?? 0, pssKiB: pss)
    }

    /// Every live thread with its context-switch counts.
    func threads() -> [ThreadSample] {
        guard let tids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [] }
        return tids.compactMap { entry in
            guard let tid = Int(entry), let status = ProcFile.read("/proc/\(pid)/task/\(tid)/status") else {
                return nil
            }
            let fields = ProcFile.fields(status)
            let name =
                ProcFile.read("/proc/\(pid)/task/\(tid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            return ThreadSample(
                tid: tid, name: name, voluntary: fields["voluntary_ctxt_switches"] ?? 0,
                involuntary: fields["nonvoluntary_ctxt_switches"] ?? 0)
        }
    }

    /// Resident KiB per mapped file (the largest first), for "what takes the memory".
    func residentByMapping(limit: Int = 12) -> [MappingShare] {
        guard let smaps = ProcFile.read("/proc/\(pid)/smaps") else { return [] }
        var byName: [String: Int] = [:]
        var current = "[anon]"
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                current = parts.count == 6 ? String(parts[5]).trimmingCharacters(in: .whitespaces) : "[anon]"
            } else if line.hasPrefix("Rss:") {
                byName[current, default: 0] += ProcFile.fields(String(line))["Rss"] ?? 0
            }
        }
        return byName.sorted { $0.value > $1.value }.prefix(limit).map {
            MappingShare(name: ($0.key as NSString).lastPathComponent, rssKiB: $0.value)
        }
    }
}

struct MappingShare: Codable, Equatable {
    var name: String
    var rssKiB: Int
}
