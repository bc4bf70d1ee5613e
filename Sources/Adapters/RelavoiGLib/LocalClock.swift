import CGLib
import FoundationEssentials

/// Moments as the person reads them: the session's local time zone (TZ or /etc/localtime), 24-hour.
public enum LocalClock {
    /// "14:02": a live call's answer time, when the connection was lost.
    public static func hoursMinutes(_ date: Date) -> String { format(date, "%H:%M") ?? "--:--" }

    /// "2026-07-15 14:02:05": for `ctl status`, which may be read days later.
    public static func dateTime(_ date: Date) -> String { format(date, "%Y-%m-%d %H:%M:%S") ?? "?" }

    private static func format(_ date: Date, _ pattern: String) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 1e12, let time = g_date_time_new_from_unix_local(gint64(seconds)) else {
            return nil
        }
        defer { g_date_time_unref(time) }
        guard let text = g_date_time_format(time, pattern) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
