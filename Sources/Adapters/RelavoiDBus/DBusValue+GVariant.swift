import CGLib
import RelavoiGLib

/// The one place `DBusValue` and GVariant meet. A value is checked whole
/// before any GVariant is made, so a bad one gives an error, never a GLib
/// critical or a half-built (leaked) tree.
extension DBusValue {
    /// A new floating GVariant (the GDBus call consuming it sinks it).
    public func gvariant() throws(DBusValueError) -> OpaquePointer {
        try check()
        return build()
    }

    /// Reads `value` (not consumed) into a `DBusValue`.
    public init(gvariant value: OpaquePointer) throws(DBusValueError) {
        let signature = GVariantValues.signature(value)
        switch signature {
        case "y": self = .byte(g_variant_get_byte(value))
        case "b": self = .bool(g_variant_get_boolean(value) != 0)
        case "i": self = .int32(g_variant_get_int32(value))
        case "u": self = .uint32(g_variant_get_uint32(value))
        case "x": self = .int64(Int64(g_variant_get_int64(value)))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(value)))
        case "d": self = .double(g_variant_get_double(value))
        case "s": self = .string(String(cString: g_variant_get_string(value, nil)))
        case "o": self = .objectPath(String(cString: g_variant_get_string(value, nil)))
        case "v":
            let inner = g_variant_get_variant(value)!
            defer { g_variant_unref(inner) }
            self = .variant(try DBusValue(gvariant: inner))
        default:
            let children = try Self.children(of: value)
            switch signature.first {
            case "(": self = .tuple(children)
            case "a": self = .array(elementSignature: String(signature.dropFirst()), children)
            case "{" where children.count == 2: self = .dictEntry(children[0], children[1])
            default: throw DBusValueError("no DBusValue for the D-Bus type \(signature)")
            }
        }
    }

    private static func children(of container: OpaquePointer) throws(DBusValueError) -> [DBusValue] {
        guard g_variant_is_container(container) != 0, GVariantValues.signature(container).first != "m" else {
            throw DBusValueError("no DBusValue for the D-Bus type \(GVariantValues.signature(container))")
        }
        var children: [DBusValue] = []
        for index in 0..<GVariantValues.count(container) {
            let child = GVariantValues.child(container, index)
            defer { g_variant_unref(child) }
            children.append(try DBusValue(gvariant: child))
        }
        return children
    }

    /// The rules GLib would enforce with a critical and a NULL.
    private func check() throws(DBusValueError) {
        switch self {
        case .objectPath(let path):
            guard g_variant_is_object_path(path) != 0 else { throw DBusValueError("\"\(path)\" is not an object path") }
        case .variant(let inner):
            try inner.check()
        case .tuple(let children):
            for child in children { try child.check() }
        case .array(let element, let children):
            guard GVariantValues.isValidType(element) else {
                throw DBusValueError("array element type \"\(element)\" is not a D-Bus type")
            }
            for child in children {
                guard child.signature == element else {
                    throw DBusValueError("array of \(element) holds a \(child.signature)")
                }
                try child.check()
            }
        case .dictEntry(let key, let value):
            guard key.isBasic else { throw DBusValueError("dictionary key of type \(key.signature) is not basic") }
            try key.check()
            try value.check()
        case .byte, .bool, .int32, .uint32, .int64, .uint64, .double, .string:
            break
        }
    }

    private var isBasic: Bool {
        switch self {
        case .variant, .tuple, .array, .dictEntry: return false
        default: return true
        }
    }

    /// Builds a checked value.
    private func build() -> OpaquePointer {
        switch self {
        case .byte(let value): return g_variant_new_byte(value)
        case .bool(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .int32(let value): return g_variant_new_int32(value)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .int64(let value): return g_variant_new_int64(gint64(value))
        case .uint64(let value): return g_variant_new_uint64(guint64(value))
        case .double(let value): return g_variant_new_double(value)
        case .string(let value): return g_variant_new_string(value)
        case .objectPath(let value): return g_variant_new_object_path(value)
        case .variant(let inner): return g_variant_new_variant(inner.build())
        case .tuple(let children): return GVariantValues.tuple(children.map { $0.build() })
        case .array(let element, let children): return GVariantValues.array(of: element, children.map { $0.build() })
        case .dictEntry(let key, let value): return g_variant_new_dict_entry(key.build(), value.build())
        }
    }
}

extension [DBusValue] {
    /// A message's body (a call's arguments, a reply, a signal's values): one
    /// floating tuple of the values, nil for none (an empty body).
    func messageBody() throws(DBusValueError) -> OpaquePointer? {
        isEmpty ? nil : try DBusValue.tuple(self).gvariant()
    }
}
