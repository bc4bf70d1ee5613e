import Foundation
import RelavoiCore

/// The table's rows from the micro benchmark and the runs.
enum Summary {
    static func rows(micro: MicroMain.Result?, runs: [RunResult], servers: [NotificationServer.Kind]) -> [SummaryRow] {
        eventToBanner(runs, servers) + perEvent(micro, runs) + cpu(runs) + memory(runs) + startup(runs)
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
                section, "firehose, whole agent process (CPU time)", "frames/s",
                runs.map { $0.firehose?.framesPerCPUSecond }, decimals: 0
            ).goal("> 100,000 frames/s") { $0 > 100_000 },
            SummaryRow(
                section, "  the same, CPU per frame", "µs", runs.map { $0.firehose?.cpuPerFrameMicroseconds },
                decimals: 2),
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
        rows.append(
            SummaryRow(
                section, "reference: minimal GDBus client (async), CPU per update", "µs",
                runs.map { $0.referenceClient?.cpuPerUpdateMicroseconds }, decimals: 1))
        rows.append(
            SummaryRow(
                section, "reference: the same, wakeups per second", "/s",
                runs.map { $0.referenceClient?.wakeupsPerSecond }, decimals: 1))
        rows.append(
            SummaryRow(
                section, "reference: sync Notify on a thread, CPU per update", "µs",
                runs.map { $0.referenceThreadClient?.cpuPerUpdateMicroseconds }, decimals: 1))
        rows.append(
            SummaryRow(
                section, "reference: the same, wakeups per second", "/s",
                runs.map { $0.referenceThreadClient?.wakeupsPerSecond }, decimals: 1))
        for (label, pick) in [("1 banner", \RunResult.oneBanner), ("10 banners", \RunResult.tenBanners)] {
            rows.append(
                SummaryRow(
                    section, "notify-send CPU per update ÷ agent's (\(label))", "×",
                    runs.map { run in
                        guard let baseline = run.notifySend?.medianCPUMilliseconds,
                            let agent = run[keyPath: pick]?.cpuPerUpdateMicroseconds, agent > 0
                        else { return nil }
                        return baseline * 1000 / agent
                    }, decimals: 0
                ).goal("≥ 50×") { $0 >= 50 })
        }
        rows.append(
            SummaryRow(
                section, "notify-send CPU per update ÷ the async reference's", "×",
                runs.map { run in
                    guard let baseline = run.notifySend?.medianCPUMilliseconds,
                        let reference = run.referenceClient?.cpuPerUpdateMicroseconds, reference > 0
                    else { return nil }
                    return baseline * 1000 / reference
                }, decimals: 0))
        return rows
    }

    private static func memory(_ runs: [RunResult]) -> [SummaryRow] {
        let section = "Resident memory (VmRSS; 1 MiB = 1,048,576 B)"
        let mib: (ProcessProbe.Memory?) -> Double? = { $0.map { Double($0.rssKiB) / 1024 } }
        return [
            SummaryRow(
                section, "connected, before any call", "MiB", runs.map { mib($0.memoryAfterConnect) }, decimals: 1),
            SummaryRow(section, "idle after calls", "MiB", runs.map { mib($0.idle?.memory) }, decimals: 1),
            SummaryRow(section, "10 live banners", "MiB", runs.map { mib($0.tenBanners?.memory) }, decimals: 1)
                .goal("< 16 MB (15.3 MiB)") { $0 * 1_048_576 < 16_000_000 },
            SummaryRow(
                section, "  of which anonymous (heap, stacks)", "MiB",
                runs.map { $0.tenBanners?.memory.map { Double($0.anonKiB) / 1024 } }, decimals: 1),
            SummaryRow(
                section, "  proportional share (PSS)", "MiB",
                runs.map { $0.tenBanners?.memory.map { Double($0.pssKiB) / 1024 } }, decimals: 1),
            SummaryRow(
                section, "with \(grouped(Double(runs.first?.sessions?.sent ?? 0))) sessions sent (tenant agent)", "MiB",
                runs.map { mib($0.sessions?.after) }, decimals: 1),
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
        ]
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
