import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// relavoi-window's start-up: process start to its first frame, the figure the window
/// prints itself as a debug line (`G_MESSAGES_DEBUG=relavoi`) (from its /proc start time to GTK's first
/// tick), on the X display of dunst's Xvfb, with a fresh HOME (nothing set up: the window
/// opens on Sign in, as on a first launch) and no agent on the bus.
@MainActor
enum WindowStartup {
    static func firstFrameMilliseconds(binary: String, display: String, log: String) throws -> Double? {
        let home = log + ".home"
        try? FileManager.default.removeItem(atPath: home)
        try? FileManager.default.removeItem(atPath: log)
        try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["GDK_BACKEND"] = "x11"
        environment["WAYLAND_DISPLAY"] = nil
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["G_MESSAGES_DEBUG"] = Log.domain
        let child = try Child.spawn(binary, [], environment: environment, output: log)
        defer { child.stop() }
        var figure: Double?
        LoopWait.until(timeout: 30) {
            figure = parse(ProcFile.read(log) ?? "")
            return figure != nil || !child.isRunning
        }
        return figure
    }

    /// `relavoi-DEBUG: …: first frame 637 ms after start` → 637.
    static func parse(_ output: String) -> Double? {
        for line in output.split(separator: "\n") {
            guard let range = line.range(of: "first frame ") else { continue }
            let number = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            if let value = Double(number) { return value }
        }
        return nil
    }
}

/// `relavoi-bench window [--runs N] [--window-binary PATH]`: that row alone, on dunst's Xvfb
/// (started as the whole benchmark starts it), one start a run, the median printed.
@MainActor
enum WindowMain {
    static func run(_ options: BenchOptions) -> Int32 {
        guard FileManager.default.isExecutableFile(atPath: options.windowBinary) else {
            FileHandle.standardError.write(Data("relavoi-bench: no relavoi-window at \(options.windowBinary)\n".utf8))
            return 1
        }
        try? FileManager.default.createDirectory(atPath: options.logDirectory, withIntermediateDirectories: true)
        let server: NotificationServer
        do {
            server = try NotificationServer.start(.dunst, logDirectory: options.logDirectory)
        } catch {
            FileHandle.standardError.write(Data("relavoi-bench: dunst: \(error)\n".utf8))
            return 1
        }
        defer { server.stop() }
        guard let display = server.display else { return 1 }
        var values: [Double?] = []
        for number in 1...options.runs {
            let value = try? WindowStartup.firstFrameMilliseconds(
                binary: options.windowBinary, display: display, log: options.logDirectory + "/window\(number).log")
            values.append(value)
        }
        let row = Summary.windowRow(values)
        let text =
            row.spread.map {
                "\(row.label): median \(TableText.number($0.median, row.decimals)) \(row.unit) "
                    + "(min \(TableText.number($0.min, row.decimals)), max \(TableText.number($0.max, row.decimals)), "
                    + "\($0.runs.count) of \(options.runs) runs)\n"
            } ?? "\(row.label): no figure (see \(options.logDirectory)/window*.log)\n"
        FileHandle.standardOutput.write(Data(text.utf8))
        return values.allSatisfy { $0 != nil } ? 0 : 1
    }
}
