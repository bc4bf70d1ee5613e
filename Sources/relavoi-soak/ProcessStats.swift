import Foundation

/// What /proc says about a process, and what the agent says of itself
/// (`figures`: malloc's bytes in use, GLib sources per context).
struct ProcessStats: CustomStringConvertible {
    var rssKiB: Int
    /// RSS split: anonymous memory (heap, stacks) and file pages (the binary, libraries, ICU data).
    var rssAnonKiB: Int
    var rssFileKiB: Int
    var hwmKiB: Int
    var threads: Int
    var fds: Int
    /// Voluntary + involuntary context switches so far (each is a wake-up).
    var contextSwitches: Int
    /// User + system CPU time so far, in seconds.
    var cpuSeconds: Double
    var fdKinds: [String: Int]
    /// The agent's `Diagnostics()`; nil if it did not answer.
    var figures: [String: Int64]?

    var heapInUseKiB: Int? { figures?["heap-in-use-bytes"].map { Int($0 / 1024) } }
    var heapFreeKiB: Int? { figures?["heap-free-bytes"].map { Int($0 / 1024) } }
    var mainSources: Int? { figures?["main-context-sources"].map { Int($0) } }
    var presenterSources: Int? { figures?["presenter-context-sources"].map { Int($0) } }

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
            rssKiB: fields["VmRSS"] ?? 0, rssAnonKiB: fields["RssAnon"] ?? 0, rssFileKiB: fields["RssFile"] ?? 0,
            hwmKiB: fields["VmHWM"] ?? 0, threads: fields["Threads"] ?? 0,
            fds: names.count,
            contextSwitches: (fields["voluntary_ctxt_switches"] ?? 0) + (fields["nonvoluntary_ctxt_switches"] ?? 0),
            cpuSeconds: cpu, fdKinds: kinds)
    }

    var fdSummary: String { fdKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }

    var description: String {
        var text =
            "RSS \(Self.mib(rssKiB)) MiB (anonymous \(Self.mib(rssAnonKiB)), file \(Self.mib(rssFileKiB)); peak \(Self.mib(hwmKiB))), \(threads) threads, \(fds) fds (\(fdSummary))"
        if let heapInUseKiB, let heapFreeKiB, let mainSources, let presenterSources {
            text += "; malloc in use \(Self.mib(heapInUseKiB)) MiB, free in its arenas \(Self.mib(heapFreeKiB)) MiB"
            text += "; GLib sources \(mainSources) main + \(presenterSources) presenter"
        } else {
            text += "; the agent did not answer Diagnostics()"
        }
        return text
    }

    static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
}
