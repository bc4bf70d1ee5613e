import CGLib

/// The one GVariant helper of the adapters: reading a tuple's children and
/// building tuples and arrays. Builders return floating references, which the
/// GLib call consuming them sinks. `DBusValue` (RelavoiDBus) converts through it.
public enum GVariantValues {
    /// The child at `index` (a new reference: unref it).
    public static func child(_ container: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(container, gsize(index))
    }

    public static func bool(_ tuple: OpaquePointer, _ index: Int) -> Bool {
        let value = child(tuple, index)
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    public static func count(_ container: OpaquePointer) -> Int { Int(g_variant_n_children(container)) }

    /// The value's type string (`"(sssb)"`).
    public static func signature(_ value: OpaquePointer) -> String {
        String(cString: g_variant_get_type_string(value))
    }

    /// Whether `value` has exactly the type `signature` (false for an invalid signature).
    public static func hasType(_ value: OpaquePointer, _ signature: String) -> Bool {
        isValidType(signature) && withType(signature) { g_variant_is_of_type(value, $0) } != 0
    }

    /// Whether `signature` is one complete GVariant type.
    public static func isValidType(_ signature: String) -> Bool { g_variant_type_string_is_valid(signature) != 0 }

    public static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        children.map(Optional.some).withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An array of `elementSignature` (valid; every child of that type).
    public static func array(of elementSignature: String, _ children: [OpaquePointer]) -> OpaquePointer {
        withType(elementSignature) { array(of: $0, children) }
    }

    /// An array of `elementType` (a `VariantType`, for calls made often).
    public static func array(of elementType: OpaquePointer, _ children: [OpaquePointer]) -> OpaquePointer {
        children.map(Optional.some).withUnsafeBufferPointer {
            g_variant_new_array(elementType, $0.baseAddress, gsize($0.count))
        }
    }

    /// Runs `body` with a `GVariantType` for the (valid) `signature`; the type
    /// lives only as long as the call.
    public static func withType<T>(_ signature: String, _ body: (OpaquePointer) -> T) -> T {
        let type = g_variant_type_new(signature)!
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
