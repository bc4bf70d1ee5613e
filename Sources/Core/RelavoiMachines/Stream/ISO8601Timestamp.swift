import FoundationEssentials
import RelavoiCore

/// A fast, allocation-free reader for the ISO-8601 timestamps of the stream:
/// `2026-07-15T12:14:59.758Z`, with or without fractional seconds, with `Z`,
/// a numeric offset (`+02:00`, `+0200`) or no zone at all (read as UTC).
public enum ISO8601Timestamp {
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    public static func parse(utf8 s: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard s.count - i >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let byte = s[i]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                i += 1
            }
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D),
            let day = digits(2)
        else { return nil }
        guard i < s.count, s[i] == 0x54 || s[i] == 0x74 || s[i] == 0x20 else { return nil }  // T, t, space
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var fraction = 0.0
        if i < s.count, s[i] == 0x2E || s[i] == 0x2C {  // . or ,
            i += 1
            var scale = 0.1
            var count = 0
            while i < s.count, s[i] >= 0x30, s[i] <= 0x39 {
                if count < 9 { fraction += Double(s[i] - 0x30) * scale }
                scale /= 10
                count += 1
                i += 1
            }
            guard count > 0 else { return nil }
        }

        var offsetSeconds = 0
        if i < s.count {
            switch s[i] {
            case 0x5A, 0x7A:  // Z, z
                i += 1
            case 0x2B, 0x2D:  // +, -
                let sign = s[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = digits(2), hours <= 23 else { return nil }
                _ = expect(0x3A)
                guard let minutes = digits(2), minutes <= 59 else { return nil }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard i == s.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar
    /// (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
