/// A D-Bus value in plain Swift: what the agent and the tray send and read,
/// so their code names no GVariant. `DBusValue+GVariant.swift` is the one
/// place that converts to and from GVariant.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    /// Sent up to its first NUL (D-Bus strings hold none).
    case string(String)
    case objectPath(String)
    case variant(DBusValue)
    case tuple([DBusValue])
    /// Every element has the type `elementSignature`, so an empty array has a type too.
    case array(elementSignature: String, [DBusValue])
    /// An element of a dictionary (`a{sv}`); the key is of a basic type.
    case dictEntry(DBusValue, DBusValue)

    /// The D-Bus type string (`"a{sv}"`).
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .variant: return "v"
        case .tuple(let children): return "(" + children.map(\.signature).joined() + ")"
        case .array(let element, _): return "a" + element
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        }
    }

    /// `a{sv}` from keys and values, in this order.
    public static func dictionary(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var int32Value: Int32? {
        if case .int32(let value) = self { return value }
        return nil
    }

    public var int64Value: Int64? {
        if case .int64(let value) = self { return value }
        return nil
    }

    /// The children of a tuple or an array; nil for anything else.
    public var children: [DBusValue]? {
        switch self {
        case .tuple(let children), .array(_, let children): return children
        default: return nil
        }
    }
}
