import Foundation
import RelavoiCore

/// JSON text in and out, and the wire's time formats.
enum JSONText {
    /// Compact JSON with sorted keys (stable output for tests and logs).
    static func encode(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String) throws -> JSONValue {
        try decode(Data(text.utf8))
    }

    static func decode(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }
}

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

/// base64url without padding (JWT segments, cursors).
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func encode(_ text: String) -> String { encode(Data(text.utf8)) }

    static func decode(_ text: String) -> Data? {
        guard text.utf8.count <= 4096 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
