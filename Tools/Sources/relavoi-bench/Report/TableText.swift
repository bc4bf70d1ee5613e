import Foundation

/// The table `make bench` prints (and docs/bench.md quotes).
enum TableText {
    static func render(_ report: BenchReport) -> String {
        var lines: [String] = []
        let options = report.options
        lines.append(
            "relavoi-agent benchmark, \(report.generatedAt): "
                + "median and min–max of \(options.runs) run\(options.runs == 1 ? "" : "s")"
        )
        lines.append("machine: \(report.machine.oneLine); load average at start \(report.loadAverageAtStart)")
        lines.append(
            "servers: "
                + report.serverVersions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                    separator: ", "))
        lines.append("keep-alive: \(report.keepAlive)")
        let labelWidth = max(52, report.summary.map { $0.label.count }.max() ?? 0)
        var section = ""
        for row in report.summary {
            if row.section != section {
                section = row.section
                lines.append("")
                lines.append(section)
                lines.append(
                    pad("  metric", labelWidth + 2) + pad("median", 16, right: true) + "  " + pad("min–max", 24)
                        + pad("goal", 26) + "status")
            }
            var line = pad("  " + row.label, labelWidth + 2)
            if let spread = row.spread {
                let unit = row.unit.isEmpty ? "" : " " + row.unit
                line += pad(number(spread.median, row.decimals) + unit, 16, right: true) + "  "
                line += pad(number(spread.min, row.decimals) + "–" + number(spread.max, row.decimals), 24)
            } else {
                line += pad("n/a", 16, right: true) + "  " + pad("", 24)
            }
            line += pad(row.goal ?? "", 26)
            line += row.status.map { $0 == .met ? "met" : "MISSED" } ?? ""
            lines.append(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        lines.append("")
        lines += notes(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the numbers rest on: idle wakeups by thread, memory by mapping, failures.
    private static func notes(_ report: BenchReport) -> [String] {
        var lines: [String] = []
        if let idle = report.runs.first?.idle {
            let threads = idle.wakeupsByThread.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }
            lines.append(
                "idle wakeups by thread (run 1, \(Int(idle.seconds.rounded())) s): "
                    + (threads.isEmpty ? "none" : threads.joined(separator: ", ")))
        }
        let snapshots = [
            ("connected, before any call", report.runs.first?.residentByMappingAtConnect),
            ("10 live banners", report.runs.first?.residentByMapping),
        ]
        for case (let when, let mappings?) in snapshots where !mappings.isEmpty {
            let top = mappings.prefix(10).map { share in
                let anon = Double(share.anonKiB) / 1024
                let own = share.name.hasPrefix("[") || anon < 0.05 ? "" : " (anon \(number(anon, 1)))"
                return "\(share.name) \(number(Double(share.rssKiB) / 1024, 1))" + own
            }
            lines.append("resident MiB by mapping, \(when) (run 1): " + top.joined(separator: ", "))
        }
        let rounds = report.runs.flatMap { run in
            run.firehoseRounds.enumerated().map { (run.run, $0.offset + 1, $0.element) }
        }
        if !rounds.isEmpty {
            // What the firehose figure varies with: the machine's other work.
            let text = rounds.map { run, round, figures in
                var line = "run \(run) round \(round) \(Summary.grouped(figures.framesPerCPUSecond))/s"
                if let busy = figures.machineBusyPercent, let steal = figures.machineStealPercent {
                    line += " (machine \(number(busy, 0))% busy, \(number(steal, 1))% stolen"
                    line += ", load \(number(figures.loadAverage ?? 0, 1)), \(figures.preemptions ?? 0) preemptions)"
                }
                return line
            }
            lines.append("firehose rounds: " + text.joined(separator: "; "))
        }
        for run in report.runs where !run.failures.isEmpty {
            lines.append("run \(run.run) problems: " + run.failures.joined(separator: "; "))
        }
        if report.micro == nil, !report.runs.isEmpty {
            lines.append("the in-process micro benchmark did not run (see the logs)")
        }
        return lines
    }

    static func number(_ value: Double, _ decimals: Int) -> String {
        if decimals == 0 { return Summary.grouped(value) }
        return String(format: "%.\(decimals)f", value)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text + " " }
        let space = String(repeating: " ", count: width - count)
        return right ? space + text : text + space
    }
}
