import Foundation

/// The table `make bench` prints (and README.md quotes).
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
        if let mappings = report.runs.first?.residentByMapping, !mappings.isEmpty {
            let top = mappings.prefix(8).map { "\($0.name) \(number(Double($0.rssKiB) / 1024, 1))" }
            lines.append("resident MiB by mapping, 10 live banners (run 1): " + top.joined(separator: ", "))
        }
        for run in report.runs where !run.failures.isEmpty {
            lines.append("run \(run.run) problems: " + run.failures.joined(separator: "; "))
        }
        if report.micro == nil { lines.append("the in-process micro benchmark did not run (see the logs)") }
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
