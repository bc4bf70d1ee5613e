import Foundation
import RelavoiCore
import RelavoiMachines
import RelavoiProcFS

/// The table's rows from the micro benchmark and the runs.
enum Summary {
    static func rows(
        micro: MicroMain.Result?, runs: [RunResult], servers: [NotificationServer.Kind], binary: BinarySize?
    ) -> [SummaryRow] {
        footprint(binary, runs) + eventToBanner(runs, servers) + perEvent(micro, runs) + cpu(runs) + memory(runs)
            + startup(runs)
    }

    /// The goals in one place (issue 25: private memory beside dunst's, CPU per
    /// update beside the reference client's); the sections below have the details.
    private static func footprint(_ binary: BinarySize?, _ runs: [RunResult]) -> [SummaryRow] {
        let section = "Footprint (the release agent: size, resident memory, CPU per update, firehose)"
        let mib = 1_048_576.0
        var rows = [
            SummaryRow(
                section, "release binary, stripped (as make release ships it)", "MiB",
                [binary?.strippedBytes.map { Double($0) / mib }], decimals: 1
            ).goal("< 20 MiB") { $0 < 20 },
            SummaryRow(
                section, "  the same with symbols (the benchmark's build)", "MiB",
                [binary.map { Double($0.bytes) / mib }], decimals: 1),
            SummaryRow(
                section, "RSS connected, before any call", "MiB", runs.map { rss($0.memoryAfterConnect) }, decimals: 1),
            SummaryRow(section, "RSS idle after calls", "MiB", runs.map { rss($0.idle?.memory) }, decimals: 1),
            // VmRSS counts clean file pages the kernel drops first under pressure: no goal.
            SummaryRow(section, "RSS with 1 live banner", "MiB", runs.map { rss($0.oneBanner?.memory) }, decimals: 1),
            SummaryRow(
                section, "RSS with 10 live banners", "MiB", runs.map { rss($0.tenBanners?.memory) }, decimals: 1),
            // What the agent really costs: its private memory, and its share of what it maps.
            SummaryRow(
                section, "private memory (RssAnon) with 1 live banner", "MiB", runs.map { anon($0.oneBanner?.memory) },
                decimals: 1),
            SummaryRow(
                section, "private memory (RssAnon) with 10 live banners", "MiB",
                runs.map { anon($0.tenBanners?.memory) }, decimals: 1),
            SummaryRow(
                section, "  dunst's RssAnon with 10 notifications shown (the same run)", "MiB",
                runs.map { anon($0.dunstTenShown) }, decimals: 1),
            SummaryRow(
                section, "  the agent's (10 live banners) minus dunst's", "MiB",
                runs.map { run in
                    anon(run.tenBanners?.memory).flatMap { agent in anon(run.dunstTenShown).map { agent - $0 } }
                }, decimals: 1
            ).goal("≤ 0 (no more than dunst)") { $0 <= 0 },
            SummaryRow(
                section, "PSS with 1 live banner", "MiB", runs.map { pss($0.oneBanner?.memory) }, decimals: 1),
            SummaryRow(
                section, "PSS with 10 live banners", "MiB", runs.map { pss($0.tenBanners?.memory) }, decimals: 1),
        ]
        let goals: [(String, KeyPath<RunResult, CPUWindow?>, String, (Double) -> Bool)] = [
            ("1 live banner", \.oneBanner, "≤ 1.5×", { $0 <= 1.5 }),
            ("10 live banners", \.tenBanners, "< 0.5×", { $0 < 0.5 }),
        ]
        for (label, pick, goal, met) in goals {
            rows.append(
                SummaryRow(
                    section, "CPU per update ÷ the async reference's, \(label)", "×",
                    runs.map { ratio($0[keyPath: pick]?.cpuPerUpdateMicroseconds, to: $0.referenceClient) },
                    decimals: 2
                ).goal(goal, met: met))
        }
        let rounds = runs.flatMap { $0.firehoseRounds }
        rows += [
            SummaryRow(
                section, "firehose, whole agent process (all \(rounds.count) rounds)", "frames/s",
                rounds.map { $0.framesPerCPUSecond }, decimals: 0
            ).goal("> 150,000 frames/s") { $0 > 150_000 },
            SummaryRow(
                section, "  frames read per wakeup of the agent (the same rounds)", "",
                rounds.map { $0.framesPerWakeup }, decimals: 1),
        ]
        return rows
    }

    private static func rss(_ memory: ProcessProbe.Memory?) -> Double? { memory.map { Double($0.rssKiB) / 1024 } }
    private static func anon(_ memory: ProcessProbe.Memory?) -> Double? { memory.map { Double($0.anonKiB) / 1024 } }
    private static func pss(_ memory: ProcessProbe.Memory?) -> Double? { memory.map { Double($0.pssKiB) / 1024 } }

    /// `value` (µs per update) over a reference client's CPU per update.
    private static func ratio(_ value: Double?, to reference: CPUWindow?) -> Double? {
        guard let value, let base = reference?.cpuPerUpdateMicroseconds, base > 0 else { return nil }
        return value / base
    }

    private static func eventToBanner(_ runs: [RunResult], _ servers: [NotificationServer.Kind]) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        let section = "Event to banner (sandbox sends the frame → the server receives Notify; one call at a time)"
        for server in servers {
            let results = runs.map { $0.eventToBanner(on: server) }
            let name = server.rawValue
            rows += [
                SummaryRow(
                    section, "\(name): calls measured a run", "", results.map { $0.map { Double($0.calls) } },
                    decimals: 0),
                SummaryRow(
                    section, "\(name): call.answered → Notify, p50", "ms", results.map { $0?.answered?.p50 },
                    decimals: 3),
                SummaryRow(
                    section, "\(name): call.answered → Notify, p99", "ms", results.map { $0?.answered?.p99 },
                    decimals: 3),
                SummaryRow(
                    section, "\(name): D-Bus floor (bare Notify round trip), p50", "ms", results.map { $0?.floor?.p50 },
                    decimals: 3),
                SummaryRow(section, "\(name): D-Bus floor, p99", "ms", results.map { $0?.floor?.p99 }, decimals: 3),
                SummaryRow(
                    section, "\(name): event→banner p99 minus floor p99", "ms",
                    results.map { result in
                        result.flatMap { r in r.answered.flatMap { a in r.floor.map { a.p99 - $0.p99 } } }
                    },
                    decimals: 3
                ).goal("≤ 1 ms") { $0 <= 1 },
                SummaryRow(
                    section, "\(name): call.answered → server's reply, p99", "ms",
                    results.map { $0?.answeredReply?.p99 }, decimals: 3),
                SummaryRow(
                    section, "\(name): call.incoming (new banner) → Notify, p99", "ms",
                    results.map { $0?.incoming?.p99 }, decimals: 3),
            ]
        }
        return rows
    }

    private static func perEvent(_ micro: MicroMain.Result?, _ runs: [RunResult]) -> [SummaryRow] {
        let section = "The agent's own work per event (in process, no I/O) and the firehose"
        let work = micro?.perEvent
        let micros: (Spread?) -> [Double?] = { spread in spread?.runs.map { $0 / 1000 } ?? [] }
        let frames = micro?.firehose.frames ?? 0
        return [
            SummaryRow(section, "decode one call.answered frame", "µs", micros(work?.decodeNanoseconds), decimals: 2),
            SummaryRow(
                section, "state per event (directory, call book, banner board)", "µs", micros(work?.stateNanoseconds),
                decimals: 2),
            SummaryRow(
                section, "content: a tick (quiet update)", "µs", micros(work?.renderTickNanoseconds), decimals: 2),
            SummaryRow(section, "content: a new banner", "µs", micros(work?.renderChangeNanoseconds), decimals: 2),
            SummaryRow(
                section, "one banner's tick (board + content)", "µs", micros(work?.tickNanoseconds), decimals: 2),
            SummaryRow(
                section, "firehose (\(grouped(Double(frames)))) frames: decode only", "frames/s",
                micro?.firehose.decodeFramesPerSecond?.runs ?? [], decimals: 0),
            SummaryRow(
                section, "firehose: decode + dispatch (CallDriver)", "frames/s",
                micro?.firehose.dispatchFramesPerSecond?.runs ?? [], decimals: 0
            ).goal("> 100,000 frames/s") { $0 > 100_000 },
            SummaryRow(
                section, "firehose, whole agent process: CPU per frame (all rounds)", "µs",
                runs.flatMap { $0.firehoseRounds.map { $0.cpuPerFrameMicroseconds } }, decimals: 2),
        ]
    }

    private static func cpu(_ runs: [RunResult]) -> [SummaryRow] {
        let section = "CPU time and wakeups (agent process, all threads; notification server: dbusmock)"
        let budget = runs.compactMap { $0.idle.map { KeepAlive.budgetPerSecond(window: $0.seconds) } }.max() ?? 0
        var rows = [
            SummaryRow(
                section, "idle (connected, no call): CPU per second", "µs",
                runs.map { $0.idle?.cpuPerSecondMicroseconds }, decimals: 1),
            SummaryRow(section, "idle: wakeups per second", "/s", runs.map { $0.idle?.wakeupsPerSecond }, decimals: 2)
                .goal("≤ keep-alive (\(String(format: "%.2f", budget))/s)") { $0 <= budget },
            SummaryRow(
                section, "idle: wakeups/s outside the main thread", "/s",
                runs.map { run in
                    run.idle.map { Double($0.wakeups - ($0.wakeupsByThread["relavoi-agent"] ?? 0)) / $0.seconds }
                }, decimals: 2),
        ]
        for (label, pick) in [("1 live banner", \RunResult.oneBanner), ("10 live banners", \RunResult.tenBanners)] {
            let windows = runs.map { $0[keyPath: pick] }
            rows += [
                SummaryRow(
                    section, "\(label): CPU per banner-second", "µs",
                    windows.map { $0?.cpuPerBannerSecondMicroseconds }, decimals: 1),
                SummaryRow(
                    section, "\(label): CPU per banner update", "µs", windows.map { $0?.cpuPerUpdateMicroseconds },
                    decimals: 1),
                SummaryRow(
                    section, "\(label): wakeups per second", "/s", windows.map { $0?.wakeupsPerSecond }, decimals: 1),
            ]
        }
        rows.append(
            SummaryRow(
                section, "notify-send --replace-id: CPU per update (its process)", "ms",
                runs.map { $0.notifySend?.medianCPUMilliseconds }, decimals: 2))
        let references: [(String, (RunResult) -> CPUWindow?)] = [
            ("minimal GDBus client (async)", { $0.referenceClient })
        ]
        for (label, pick) in references {
            rows += [
                SummaryRow(
                    section, "reference: \(label), CPU per update", "µs",
                    runs.map { pick($0)?.cpuPerUpdateMicroseconds }, decimals: 1),
                SummaryRow(
                    section, "reference: the same, wakeups per second", "/s", runs.map { pick($0)?.wakeupsPerSecond },
                    decimals: 1),
            ]
        }
        // A comparison, not a goal: no long-lived GDBus client reaches 50× here.
        let clients: [(String, (RunResult) -> CPUWindow?)] = [
            ("agent's (1 banner)", { $0.oneBanner }), ("agent's (10 banners)", { $0.tenBanners }),
            ("the async reference's", { $0.referenceClient }),
        ]
        for (label, pick) in clients {
            rows.append(
                SummaryRow(
                    section, "notify-send CPU per update ÷ \(label)", "×",
                    runs.map { run in
                        guard let baseline = run.notifySend?.medianCPUMilliseconds,
                            let client = pick(run)?.cpuPerUpdateMicroseconds, client > 0
                        else { return nil }
                        return baseline * 1000 / client
                    }, decimals: 0))
        }
        return rows
    }

    private static func memory(_ runs: [RunResult]) -> [SummaryRow] {
        let section = "Resident memory (VmRSS; 1 MiB = 1,048,576 B)"
        var rows: [SummaryRow] = []
        let windows: [(String, (RunResult) -> ProcessProbe.Memory?)] = [
            ("connected, before any call", { $0.memoryAfterConnect }), ("1 live banner", { $0.oneBanner?.memory }),
            ("10 live banners", { $0.tenBanners?.memory }),
        ]
        for (label, pick) in windows {
            rows += [
                SummaryRow(
                    section, "\(label): anonymous (heap, stacks)", "MiB",
                    runs.map { pick($0).map { Double($0.anonKiB) / 1024 } }, decimals: 1),
                SummaryRow(
                    section, "\(label): file pages (binary, libraries)", "MiB",
                    runs.map { pick($0).map { Double($0.fileKiB) / 1024 } }, decimals: 1),
                SummaryRow(
                    section, "\(label): proportional share (PSS)", "MiB",
                    runs.map { pick($0).map { Double($0.pssKiB) / 1024 } }, decimals: 1),
            ]
        }
        return rows + [
            SummaryRow(
                section, "with \(grouped(Double(runs.first?.sessions?.sent ?? 0))) sessions sent (tenant agent)", "MiB",
                runs.map { rss($0.sessions?.after) }, decimals: 1),
            SummaryRow(
                section,
                "growth per tracked session (\(grouped(Double(runs.first?.sessions?.sent ?? 0))) sent, "
                    + "\(grouped(Double(SessionDirectory().capacity))) kept)",
                "B",
                runs.map { $0.sessions?.bytesPerSessionKept }, decimals: 0
            ).goal("< 1 KB (1,000 B)") { $0 < 1000 },
            SummaryRow(
                section, "  the same per session sent", "B", runs.map { $0.sessions?.bytesPerSessionSent }, decimals: 0),
        ]
    }

    private static func startup(_ runs: [RunResult]) -> [SummaryRow] {
        let section = "Start-up"
        return [
            SummaryRow(
                section, "process start → stream's connected frame", "ms", runs.map { $0.startupConnectedMilliseconds },
                decimals: 1),
            SummaryRow(
                section, "process start → first banner, --demo", "ms", runs.map { $0.startupDemoBannerMilliseconds },
                decimals: 1),
            SummaryRow(
                section, "  the same without the script's \(Int(Startup.demoRingDelay)) s before ringing", "ms",
                runs.map { $0.startupDemoBannerMilliseconds.map { $0 - Startup.demoRingDelay * 1000 } }, decimals: 1),
            windowRow(runs.map { $0.windowFirstFrameMilliseconds }),
        ]
    }

    /// The desktop's cost per live call second (issue 42), in CPU ms per second of wall
    /// time: the shell's and waybar's from /proc/PID/stat, each above the same round's idle;
    /// the agent's from schedstat (its figure is a fraction of one 10 ms tick a second).
    static func desktop(_ cost: DesktopCost?, _ options: BenchOptions) -> [SummaryRow] {
        guard let cost else { return [] }
        let rounds = "\(cost.repeats) round\(cost.repeats == 1 ? "" : "s") of \(Int(cost.phaseSeconds)) s phases"
        let gnome = cost.versions["gnome"] ?? "GNOME Shell"
        let section = "The desktop's cost per live call second (CPU ms per second; median and min–max of \(rounds))"
        let clock = SummaryRow(
            section, "\(gnome) (Xvfb): (a) the clock showing seconds, above idle", "ms/s",
            cost.aboveIdle("clock", "shell"))
        let clockMedian = clock.spread?.median ?? 0
        let limit = "≤ (a) " + TableText.number(clockMedian, 2)
        var rows = [
            SummaryRow(
                section, "\(gnome) (Xvfb): idle (no agent, the clock without seconds)", "ms/s",
                cost.values("idle", "shell")),
            clock,
            SummaryRow(
                section, "  one /proc tick (10 ms) as a share of (a)'s CPU in a phase", "%",
                cost.tickShare("clock", "shell")
            )
            .goal("< 5%") { $0 < 5 },
            SummaryRow(
                section, "(b) a live call with the extension, the shell above idle", "ms/s",
                cost.aboveIdle("call-extension", "shell")
            )
            .goal(limit) { $0 <= clockMedian },
            SummaryRow(
                section, "  one /proc tick as a share of (b)'s CPU in a phase", "%",
                cost.tickShare("call-extension", "shell")
            )
            .goal("< 5%") { $0 < 5 },
            SummaryRow(
                section, "(c) a live call without the extension, the shell above idle", "ms/s",
                cost.aboveIdle("call-bare", "shell")),
            SummaryRow(
                section, "  (a) from schedstat", "ms/s", cost.aboveIdle("clock", "shell", fine: true)),
            SummaryRow(
                section, "  (b) from schedstat", "ms/s", cost.aboveIdle("call-extension", "shell", fine: true)),
            SummaryRow(section, "  (c) from schedstat", "ms/s", cost.aboveIdle("call-bare", "shell", fine: true)),
            SummaryRow(
                section, "  GNOME's notification helper (gjs) above idle, (b)", "ms/s",
                cost.aboveIdle("call-extension", "helper")),
            SummaryRow(
                section, "  GNOME's notification helper (gjs) above idle, (c)", "ms/s",
                cost.aboveIdle("call-bare", "helper")),
            SummaryRow(
                section, "the agent per live call second, beside (b) (schedstat)", "ms/s",
                cost.values("call-extension", "agent", fine: true)
            )
            .goal(limit) { $0 <= clockMedian },
            SummaryRow(
                section, "the agent per live call second, beside (c) (schedstat)", "ms/s",
                cost.values("call-bare", "agent", fine: true)
            )
            .goal(limit) { $0 <= clockMedian },
            SummaryRow(
                section, "  the agent's wake-ups (all threads), beside (b)", "/s",
                cost.wakeupsPerSecond("call-extension", "agent"), decimals: 1),
        ]
        if let waybar = cost.versions["waybar"] {
            let name = waybar.components(separatedBy: ";").first ?? "waybar"
            rows += [
                SummaryRow(section, "\(name) on headless sway: idle (no agent)", "ms/s", cost.values("idle", "waybar")),
                SummaryRow(
                    section, "  waybar above idle while the tray item ticks (a live call)", "ms/s",
                    cost.aboveIdle("call-tray", "waybar")),
                SummaryRow(
                    section, "    one /proc tick as a share of waybar's CPU above idle in a phase", "%",
                    cost.tickShare("call-tray", "waybar")
                ).goal("< 5%") { $0 < 5 },
                SummaryRow(
                    section, "    the same from schedstat", "ms/s", cost.aboveIdle("call-tray", "waybar", fine: true)),
                SummaryRow(section, "  sway above idle, the same", "ms/s", cost.aboveIdle("call-tray", "sway")),
                SummaryRow(
                    section, "  the agent per live call second (tray item, mako's banner; schedstat)", "ms/s",
                    cost.values("call-tray", "agent", fine: true)),
                SummaryRow(
                    section, "  the agent's wake-ups (all threads), the same", "/s",
                    cost.wakeupsPerSecond("call-tray", "agent"), decimals: 1),
            ]
        }
        return rows
    }

    /// The settings window's start-up (`relavoi-bench window` prints this row alone).
    static func windowRow(_ values: [Double?]) -> SummaryRow {
        SummaryRow("Start-up", "relavoi-window start → its first frame (Xvfb, dunst)", "ms", values, decimals: 0)
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0, character != "-" { out.append(",") }
            out.append(character)
        }
        return String(out.reversed())
    }
}
