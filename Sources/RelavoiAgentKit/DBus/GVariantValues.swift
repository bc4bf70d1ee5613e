import CGLib

/// Reading and building the few GVariant shapes of the control interface.
/// Builders return floating references, which the GDBus call consuming them sinks.
enum GVariantValues {
    static func child(_ tuple: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(tuple, gsize(index))
    }

    static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        let value = child(tuple, index)
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }

    static func bool(_ tuple: OpaquePointer, _ index: Int) -> Bool {
        let value = child(tuple, index)
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    static func int32(_ tuple: OpaquePointer, _ index: Int) -> Int32 {
        let value = child(tuple, index)
        defer { g_variant_unref(value) }
        return g_variant_get_int32(value)
    }

    static func int64(_ tuple: OpaquePointer, _ index: Int) -> Int64 {
        let value = child(tuple, index)
        defer { g_variant_unref(value) }
        return Int64(g_variant_get_int64(value))
    }

    static func count(_ container: OpaquePointer) -> Int { Int(g_variant_n_children(container)) }

    /// Whether `value` has exactly the type `signature`.
    static func hasType(_ value: OpaquePointer, _ signature: String) -> Bool {
        g_variant_type_string_is_valid(signature) != 0
            && withType(signature) { g_variant_is_of_type(value, $0) } != 0
    }

    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        children.map(Optional.some).withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    static func array(of elementSignature: String, _ children: [OpaquePointer]) -> OpaquePointer {
        withType(elementSignature) { type in
            children.map(Optional.some).withUnsafeBufferPointer {
                g_variant_new_array(type, $0.baseAddress, gsize($0.count))
            }
        }
    }

    /// Runs `body` with a `GVariantType` for the (valid) `signature`; the type
    /// lives only as long as the call.
    static func withType<T>(_ signature: String, _ body: (OpaquePointer) -> T) -> T {
        let type = g_variant_type_new(signature)!
        defer { g_variant_type_free(type) }
        return body(type)
    }
}
