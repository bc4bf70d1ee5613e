import CGLib
import FoundationEssentials

/// The wall-clock time of a moment as the person reads it: local time zone, 24-hour `HH:MM`.
public enum LocalClock {
    public static func hoursMinutes(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12, let time = g_date_time_new_from_unix_local(gint64(seconds)) else {
            return "--:--"
        }
        defer { g_date_time_unref(time) }
        guard let text = g_date_time_format(time, "%H:%M") else { return "--:--" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
