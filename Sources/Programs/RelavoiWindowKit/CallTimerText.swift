import FoundationEssentials
import RelavoiClient
import RelavoiI18n

/// What the Status page says of one call: its state and the timer (mm:ss, h:mm:ss).
package enum CallTimerText {
    package static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(two(s / 60)):\(two(s % 60))"
    }

    /// The row's end: the timer while live, the final duration once ended, "Ringing…".
    package static func suffix(_ call: CallsReading.Call, now: Date) -> String {
        switch call.phase {
        case "ringing": return L("Ringing…")
        case "live": return clock(call.seconds(at: now))
        case "ended": return L("Ended, %s", clock(call.seconds(at: now)))
        default: return ""
        }
    }

    /// The row's subtitle: the number and the badge's words (a comma, which screen readers
    /// do not read out, where a middle dot was read "middle dot").
    package static func subtitle(_ call: CallsReading.Call) -> String {
        [call.proxyNumber, call.badgeText].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
