import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiGLib

/// What `ctl list` and `ctl status` print, and how a failed call reads.
enum ControlReport {
    /// `session<TAB>phase<TAB>seconds<TAB>badge<TAB>proxy<TAB>label`, each
    /// field terminal-safe (a tab in a label becomes U+FFFD too). Seconds: the
    /// elapsed time while live (from its answer time), the duration once ended.
    static func line(_ call: CallsReading.Call, now: Date) -> String {
        [
            TerminalText.safe(call.sessionId), TerminalText.safe(call.phase), String(call.seconds(at: now)),
            TerminalText.safe(call.badge), TerminalText.safe(call.proxyNumber), TerminalText.safe(call.label),
        ].joined(separator: "\t")
    }

    /// The health line: the `Health` property's state, and since when in local time.
    static func status(connected: Bool, bannerCount: Int, health: (state: String, since: Date?)) -> String {
        let since = health.since.map { " since " + LocalClock.dateTime($0) } ?? ""
        return "connected: \(connected ? "yes" : "no")\nbanners: \(bannerCount)\n"
            + "health: \(TerminalText.safe(health.state))\(since)"
    }
}
