import FoundationEssentials
import Glibc

/// Times as the person reads them: local time (the zone of the session, TZ or
/// /etc/localtime), 24-hour, as the notices and `ctl status` show them.
enum LocalClockText {
    /// "14:02": when the connection was lost, in a notice or the panel.
    static func hoursMinutes(_ date: Date) -> String { format(date, "%H:%M") }

    /// "2026-07-15 14:02:05": for `ctl status`, which may be read days later.
    static func dateTime(_ date: Date) -> String { format(date, "%Y-%m-%d %H:%M:%S") }

    private static func format(_ date: Date, _ pattern: String) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "?" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
