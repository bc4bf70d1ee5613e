import FoundationEssentials

/// Arbitrary JSON, as the iOS SDK's small Codable bridge.
public enum JSONValue: Equatable, Hashable, Sendable, Codable {
    /// A JSON string.
    case string(String)
    /// A JSON number without a fraction or exponent that fits an `Int`.
    case int(Int)
    /// Any other JSON number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// JSON `null`.
    case null
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The field `key` of an object; nil for a missing field or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// The string of a `.string`; nil for anything else.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
