import Foundation
import RelavoiGLib

/// `relavoi-bench`: the micro benchmark in a child process, then the runs,
/// then the table and the JSON.
@MainActor
enum BenchMain {
    static func run(_ arguments: [String]) -> Int32 {
        setlocale(LC_ALL, "")
        let options: BenchOptions
        switch BenchOptions.parse(arguments) {
        case .exit(let code, let message):
            (code == 0 ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
            return code
        case .run(let parsed):
            options = parsed
        }
        MainLoop.installDispatchBridge()
        if let out = options.microOut { return MicroMain.run(out: out, firehoseFrames: options.firehoseFrames) }
        if let banners = options.tickerBanners { return TickerMain.run(banners: banners) }
        if let path = options.renderFrom { return render(path) }

        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            return fail("no session bus: run it through scripts/bench.sh (make bench), which starts a private one")
        }
        if options.windowOnly { return WindowMain.run(options) }
        guard FileManager.default.isExecutableFile(atPath: options.agentBinary) else {
            return fail("no agent binary at \(options.agentBinary) (swift build -c release, or --agent PATH)")
        }
        guard !BusNames.hasOwner(BusNames.notifications) else {
            return fail("a notification server already runs on this bus; use a private bus (scripts/bench.sh)")
        }
        do {
            try FileManager.default.createDirectory(atPath: options.logDirectory, withIntermediateDirectories: true)
        } catch {
            return fail("cannot create \(options.logDirectory): \(error)")
        }

        let startedAt = Clock.now()
        let load = (ProcFile.read("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        if options.desktopOnly {
            let desktop = measureDesktop(options)
            let written = write(
                options, startedAt: startedAt, load: load, binary: nil, micro: nil, runs: [], desktop: desktop)
            return written && desktop != nil ? 0 : 1
        }
        let binary = BinarySize.measure(options.agentBinary, scratch: options.outDirectory)
        let micro = runMicro(options)
        let monitor: BusMonitor
        do {
            monitor = try BusMonitor.start()
        } catch {
            return fail("\(error)")
        }
        var runs: [RunResult] = []
        for number in 1...options.runs {
            var run = BenchRun(options: options, monitor: monitor, number: number, startedAt: startedAt)
            runs.append(run.run())
        }
        let desktop = measureDesktop(options)
        let written = write(
            options, startedAt: startedAt, load: load, binary: binary, micro: micro, runs: runs, desktop: desktop)
        let desktopFailed = !options.desktopScript.isEmpty && desktop == nil
        return written && runs.allSatisfy { $0.failures.isEmpty } && micro != nil && !desktopFailed ? 0 : 1
    }

    /// Prints the table of an earlier run's latest.json, its rows made anew from its figures.
    private static func render(_ path: String) -> Int32 {
        guard var report = try? JSONOutput.read(BenchReport.self, from: path) else {
            return fail("cannot read \(path) as a report of this relavoi-bench")
        }
        report.summary =
            (report.runs.isEmpty
                ? []
                : Summary.rows(
                    micro: report.micro, runs: report.runs, servers: report.options.servers, binary: report.agentBinary))
            + Summary.desktop(report.desktop, report.options)
        FileHandle.standardOutput.write(Data(TableText.render(report).utf8))
        return 0
    }

    /// Prints the table and writes latest.json and latest.txt; false when they could not be written.
    private static func write(
        _ options: BenchOptions, startedAt: UInt64, load: String, binary: BinarySize?, micro: MicroMain.Result?,
        runs: [RunResult], desktop: DesktopCost?
    ) -> Bool {
        let report = BenchReport(
            generatedAt: ISO8601DateFormatter().string(from: Date()),
            machine: Machine.describe(swiftVersion: options.swiftVersion), loadAverageAtStart: load, options: options,
            serverVersions: Dictionary(
                uniqueKeysWithValues: options.servers.map {
                    (
                        $0 == .dbusmock ? "python3-dbusmock" : $0.rawValue,
                        NotificationServer.packageVersion($0 == .dbusmock ? "python3-dbusmock" : $0.rawValue)
                    )
                } + [("libnotify-bin (notify-send)", NotificationServer.packageVersion("libnotify-bin"))]),
            agentBinary: binary, keepAlive: KeepAlive.description, micro: micro, runs: runs, desktop: desktop,
            summary: (runs.isEmpty
                ? [] : Summary.rows(micro: micro, runs: runs, servers: options.servers, binary: binary))
                + Summary.desktop(desktop, options))
        let table = TableText.render(report)
        FileHandle.standardOutput.write(Data(table.utf8))
        do {
            try JSONOutput.write(report, to: options.outDirectory + "/latest.json")
            try table.write(toFile: options.outDirectory + "/latest.txt", atomically: true, encoding: .utf8)
            let minutes = String(format: "%.1f", Clock.seconds(since: startedAt) / 60)
            FileHandle.standardError.write(
                Data("relavoi-bench: wrote \(options.outDirectory)/latest.json and latest.txt (\(minutes) min)\n".utf8))
            return true
        } catch {
            _ = fail("cannot write the results: \(error)")
            return false
        }
    }

    /// The desktops' part (scripts/bench-desktop.sh), after the runs; nil without a script.
    private static func measureDesktop(_ options: BenchOptions) -> DesktopCost? {
        guard !options.desktopScript.isEmpty else { return nil }
        let minutes = Double(options.desktopRepeats) * 6 * options.desktopSeconds / 60
        FileHandle.standardError.write(
            Data(
                ("relavoi-bench: the desktop's cost per live call second (GNOME Shell, waybar; about "
                    + "\(Int(minutes.rounded(.up)) + 2) min)\n").utf8))
        let cost = DesktopCost.measure(options)
        if cost == nil {
            FileHandle.standardError.write(
                Data(
                    "relavoi-bench: the desktop part wrote no figures (see \(options.logDirectory)/desktop.log)\n".utf8)
            )
        }
        return cost
    }

    /// The in-process part, in a child of its own, before any notification server runs.
    private static func runMicro(_ options: BenchOptions) -> MicroMain.Result? {
        FileHandle.standardError.write(Data("relavoi-bench: in-process work per event and firehose\n".utf8))
        let out = options.logDirectory + "/micro.json"
        try? FileManager.default.removeItem(atPath: out)
        guard
            let child = try? Child.spawn(
                RunningExecutable.path, ["micro", "--out", out, "--firehose", String(options.firehoseFrames)],
                output: options.logDirectory + "/micro.log")
        else { return nil }
        if !child.wait(timeout: 300) { child.stop() }
        return try? JSONOutput.read(MicroMain.Result.self, from: out)
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("relavoi-bench: \(message)\n".utf8))
        return 1
    }
}
