import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// Where the benchmark ran.
struct Machine: Codable, Equatable {
    var cpus: Int
    var cpuModel: String
    var kernel: String
    var system: String
    var swift: String
    var memoryMiB: Int

    static func describe(swiftVersion: String) -> Machine {
        let cpuinfo = ProcFile.read("/proc/cpuinfo") ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?" }
            ?? "?"
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let osRelease = ProcFile.read("/etc/os-release") ?? ""
        let pretty =
            osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst(12).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
        let memory = ProcFile.fields(ProcFile.read("/proc/meminfo") ?? "")["MemTotal"] ?? 0
        return Machine(
            cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, kernel: release, system: pretty,
            swift: swiftVersion, memoryMiB: memory / 1024)
    }

    var oneLine: String {
        "\(cpus) × \(cpuModel), \(memoryMiB / 1024) GiB, \(system), Linux \(kernel), \(swift)"
    }
}
