import Foundation
import RelavoiGLib

/// The baseline a user would script: one `notify-send --replace-id` process
/// per second updating one banner. CPU time per update is the process's own
/// (wait4's rusage: exec, linking, GLib, bus connection, Notify, exit).
@MainActor
enum NotifySendBaseline {
    struct Result: Codable, Equatable {
        var updates: Int
        /// Per update, milliseconds of CPU.
        var cpuMilliseconds: [Double]
        /// Per update, milliseconds from spawn to exit.
        var wallMilliseconds: [Double]
        var medianCPUMilliseconds: Double? { Stats.median(cpuMilliseconds) }
    }

    static let path = "/usr/bin/notify-send"

    static func run(updates: Int, logDirectory: String) -> Result? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let idFile = logDirectory + "/notify-send-id.txt"
        try? FileManager.default.removeItem(atPath: idFile)
        guard let first = try? Child.spawn(path, ["-p", "-a", "Relavoi", "Caller", "Incoming call"], output: idFile)
        else {
            return nil
        }
        first.waitBlocking()
        guard let text = ProcFile.read(idFile), let id = UInt32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        var cpu: [Double] = []
        var wall: [Double] = []
        var next = Clock.now()
        for second in 0..<updates {
            BusWait.passUntil(timeout: 2) { Clock.now() >= next }
            next += 1_000_000_000
            let arguments = [
                "--replace-id=\(id)", "-a", "Relavoi", "-u", "normal", "-c", "call", "-h",
                "string:desktop-entry:com.relavoi.Agent", "-h", "boolean:resident:true", "Caller",
                "+15550000000 · 00:\(String(format: "%02d", second % 60))\n✔ Verified",
            ]
            let start = Clock.now()
            guard let child = try? Child.spawn(path, arguments) else { return nil }
            child.waitBlocking()
            wall.append(Clock.milliseconds(start, Clock.now()))
            guard child.exitStatus == 0 else { continue }
            cpu.append(child.cpuSeconds * 1000)
        }
        return Result(updates: cpu.count, cpuMilliseconds: cpu, wallMilliseconds: wall)
    }
}
