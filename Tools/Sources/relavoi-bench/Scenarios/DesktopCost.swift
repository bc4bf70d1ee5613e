import Foundation

/// The desktop's cost per live call second: `scripts/bench-desktop.sh` (GNOME
/// Shell on Xvfb, waybar on a headless sway; docs/bench.md) in a child
/// process, and its figures read back.
struct DesktopCost: Codable, Equatable {
    /// One process over one phase of one round.
    struct Sample: Codable, Equatable {
        var phase: String
        var round: Int
        var process: String
        /// utime + stime from /proc/PID/stat.
        var ticks: Int
        var seconds: Double
        /// The same process's threads' schedstat run time over the phase, thread by thread,
        /// polled each second (finer than a tick).
        var nanoseconds: Int
        /// Threads that ended during the phase, counted in `nanoseconds` up to their last
        /// poll (absent in runs before it was counted).
        var threadsGone: Int?
        /// Voluntary context switches of its threads.
        var wakeups: Int
    }

    var phaseSeconds: Double
    var repeats: Int
    var clockTicksPerSecond: Int
    var versions: [String: String]
    var samples: [Sample]

    /// CPU milliseconds per wall second of `process` in `phase`, by round:
    /// from /proc/PID/stat's ticks, or from schedstat with `fine`.
    func perSecond(_ phase: String, _ process: String, fine: Bool = false) -> [Int: Double] {
        var result: [Int: Double] = [:]
        for sample in samples where sample.phase == phase && sample.process == process && sample.seconds > 0 {
            let milliseconds =
                fine ? Double(sample.nanoseconds) / 1e6 : Double(sample.ticks) * 1000 / Double(clockTicksPerSecond)
            result[sample.round] = milliseconds / sample.seconds
        }
        return result
    }

    /// `perSecond` minus the same round's `idle`, one value a round.
    func aboveIdle(_ phase: String, _ process: String, fine: Bool = false) -> [Double?] {
        let idle = perSecond("idle", process, fine: fine)
        return perSecond(phase, process, fine: fine).sorted { $0.key < $1.key }.map { round, value in
            idle[round].map { value - $0 }
        }
    }

    /// Wake-ups (voluntary context switches of all threads) per second, by round.
    func wakeupsPerSecond(_ phase: String, _ process: String) -> [Double?] {
        samples.filter { $0.phase == phase && $0.process == process && $0.seconds > 0 }.sorted { $0.round < $1.round }
            .map { Double($0.wakeups) / $0.seconds }
    }

    func values(_ phase: String, _ process: String, fine: Bool = false) -> [Double?] {
        perSecond(phase, process, fine: fine).sorted { $0.key < $1.key }.map { $0.value }
    }

    /// How much of `phase`'s CPU above idle one clock tick is, by round (the
    /// figure's resolution: under 5% wanted).
    func tickShare(_ phase: String, _ process: String) -> [Double?] {
        aboveIdle(phase, process).map { value in
            value.flatMap { $0 > 0 ? (1000 / Double(clockTicksPerSecond)) / ($0 * phaseSeconds) * 100 : nil }
        }
    }

    /// Runs the script (it starts and stops every desktop itself) and reads its JSON.
    @MainActor
    static func measure(_ options: BenchOptions) -> DesktopCost? {
        let out = options.logDirectory + "/desktop.json"
        try? FileManager.default.removeItem(atPath: out)
        let sandbox = (options.agentBinary as NSString).deletingLastPathComponent + "/relavoi-sandbox"
        let arguments = [
            "--agent", options.agentBinary, "--sandbox", sandbox, "--out", out,
            "--seconds", String(options.desktopSeconds), "--repeats", String(options.desktopRepeats),
            "--only", options.desktops,
        ]
        guard
            let child = try? Child.spawn(
                options.desktopScript, arguments, output: options.logDirectory + "/desktop.log")
        else { return nil }
        // Six phases a round on two desktops, with their start-ups: a generous bound.
        let bound = Double(options.desktopRepeats) * (6 * options.desktopSeconds + 120) + 300
        if !child.wait(timeout: bound) { child.stop(timeout: 20) }
        return try? JSONOutput.read(DesktopCost.self, from: out)
    }
}
