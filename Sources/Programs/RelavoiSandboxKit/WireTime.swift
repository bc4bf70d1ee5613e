import Foundation
import RelavoiCore

/// ISO-8601 UTC with milliseconds, as on the wire: `2026-07-15T12:14:59.758Z`.
enum WireTime {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    static func string(_ date: Date) -> String { withFraction.format(date) }

    static func parse(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }

    static func epochMilliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    static func json(_ date: Date?) -> JSONValue {
        date.map { .string(string($0)) } ?? .null
    }
}
