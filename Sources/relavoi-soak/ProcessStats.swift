import Foundation

/// What /proc says about a process. GLib sources (timeouts, idle and fd
/// sources) are not visible from outside; leaked timers show up as idle
/// wake-ups instead (context switches while nothing happens).
struct ProcessStats: CustomStringConvertible {
    var rssKiB: Int
    var hwmKiB: Int
    var threads: Int
    var fds: Int
    /// Voluntary + involuntary context switches so far (each is a wake-up).
    var contextSwitches: Int
    /// User + system CPU time so far, in seconds.
    var cpuSeconds: Double
    var fdKinds: [String: Int]

    static func read(pid: Int32) -> ProcessStats? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        else { return nil }
        var fields: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let number = parts[1].split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
            fields[String(parts[0])] = number
        }
        // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
        let afterCommand = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let cpu = (Double(afterCommand[11]) ?? 0) / ticks + (Double(afterCommand[12]) ?? 0) / ticks
        let fdDirectory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []
        var kinds: [String: Int] = [:]
        for name in names {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + name)) ?? "?"
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
        return ProcessStats(
            rssKiB: fields["VmRSS"] ?? 0, hwmKiB: fields["VmHWM"] ?? 0, threads: fields["Threads"] ?? 0,
            fds: names.count,
            contextSwitches: (fields["voluntary_ctxt_switches"] ?? 0) + (fields["nonvoluntary_ctxt_switches"] ?? 0),
            cpuSeconds: cpu, fdKinds: kinds)
    }

    var fdSummary: String { fdKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }

    var description: String {
        "RSS \(Self.mib(rssKiB)) MiB (peak \(Self.mib(hwmKiB)) MiB), \(threads) threads, \(fds) fds (\(fdSummary))"
    }

    static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
