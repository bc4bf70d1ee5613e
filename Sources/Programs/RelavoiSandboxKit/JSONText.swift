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
