import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// What the kernel says about another process (/proc/PID): CPU time,
/// memory, threads, open files. relavoi-bench and relavoi-soak both read it.
public struct ProcessProbe: Sendable {
    public struct Memory: Codable, Equatable, Sendable {
        /// VmRSS, RssAnon, RssFile and VmHWM (KiB) from status, Pss from smaps_rollup.
        public var rssKiB: Int
        public var anonKiB: Int
        public var fileKiB: Int
        public var pssKiB: Int
        public var peakKiB: Int?
    }

    public struct ThreadSample: Equatable, Sendable {
        public var tid: Int
        public var name: String
        public var voluntary: Int
        public var involuntary: Int
    }

    public let pid: pid_t

    public init(pid: pid_t) { self.pid = pid }

    /// CPU time of all threads, dead ones included (the process CPU clock, ns resolution).
    public func cpuNanoseconds() -> UInt64? {
        var clock = clockid_t(0)
        var ts = timespec()
        guard clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &ts) == 0 else { return ticksFallback() }
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// utime + stime from /proc/PID/stat (clock ticks).
    private func ticksFallback() -> UInt64? {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        return (user + system) * 1_000_000_000 / UInt64(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// /proc/PID/status as numbers (`VmRSS`, `Threads`, `voluntary_ctxt_switches`, …).
    public func status() -> [String: Int]? {
        ProcFile.read("/proc/\(pid)/status").map(ProcFile.fields)
    }

    public func memory() -> Memory? {
        guard let fields = status(), let rss = fields["VmRSS"] else { return nil }
        let pss = ProcFile.read("/proc/\(pid)/smaps_rollup").flatMap { ProcFile.fields($0)["Pss"] } ?? 0
        return Memory(
            rssKiB: rss, anonKiB: fields["RssAnon"] ?? 0, fileKiB: fields["RssFile"] ?? 0, pssKiB: pss,
            peakKiB: fields["VmHWM"])
    }

    /// Every live thread with its context-switch counts.
    public func threads() -> [ThreadSample] {
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

    /// Open file descriptors by kind: `socket`, `pipe`, `eventfd` and the
    /// like (anon inodes), `/dev/…` paths, and `file` for the rest.
    public func fileDescriptorKinds() -> [String: Int] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var kinds: [String: Int] = [:]
        for name in names {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?"
            let kind: String
            if target.hasPrefix("socket:") {
                kind = "socket"
            } else if target.hasPrefix("anon_inode:") {
                kind = String(target.dropFirst("anon_inode:".count))
            } else if target.hasPrefix("pipe:") {
                kind = "pipe"
            } else if target.hasPrefix("/dev/") {
                kind = target
            } else {
                kind = "file"
            }
            kinds[kind, default: 0] += 1
        }
        return kinds
    }

    /// Resident KiB per mapped file (the largest first), for "what takes the memory",
    /// with the anonymous part of each (relocated data, copy-on-write pages).
    public func residentByMapping(limit: Int = 16) -> [MappingShare] {
        guard let smaps = ProcFile.read("/proc/\(pid)/smaps") else { return [] }
        var byName: [String: MappingShare] = [:]
        var current = "[anon]"
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                current = parts.count == 6 ? String(parts[5]).trimmingCharacters(in: .whitespaces) : "[anon]"
            } else if line.hasPrefix("Rss:") || line.hasPrefix("Anonymous:") {
                let name = (current as NSString).lastPathComponent
                var share = byName[name] ?? MappingShare(name: name, rssKiB: 0, anonKiB: 0)
                let kib = ProcFile.fields(String(line)).values.first ?? 0
                if line.hasPrefix("Rss:") { share.rssKiB += kib } else { share.anonKiB += kib }
                byName[name] = share
            }
        }
        return byName.values.sorted { $0.rssKiB > $1.rssKiB }.prefix(limit).map { $0 }
    }
}

public struct MappingShare: Codable, Equatable, Sendable {
    public var name: String
    public var rssKiB: Int
    public var anonKiB: Int
}
