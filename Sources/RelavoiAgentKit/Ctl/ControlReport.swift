import FoundationEssentials
import Glibc

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

    static func status(connected: Bool, bannerCount: Int) -> String {
        "connected: \(connected ? "yes" : "no")\nbanners: \(bannerCount)"
    }
}
