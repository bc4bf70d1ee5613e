import Foundation

/// What `make bench` writes to .build/bench/latest.json.
struct BenchReport: Codable, Equatable {
    var generatedAt: String
    var machine: Machine
    /// /proc/loadavg when the benchmark started (other work on the machine skews it).
    var loadAverageAtStart: String
    var options: BenchOptions
    var serverVersions: [String: String]
    var agentBinary: BinarySize?
    var keepAlive: String
    var micro: MicroMain.Result?
    var runs: [RunResult]
    /// GNOME Shell's and waybar's CPU per live call second (nil: not measured).
    var desktop: DesktopCost?
    var summary: [SummaryRow]
}
