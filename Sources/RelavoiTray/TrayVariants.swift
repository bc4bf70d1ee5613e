import CGLib

/// The few GVariant shapes the item uses. Builders return floating references.
enum TrayVariants {
    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        children.map(Optional.some).withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// An empty `a(iiay)`: the icons are named, never sent as pixels.
    static func noPixmaps() -> OpaquePointer {
        let type = g_variant_type_new("(iiay)")!
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, nil, 0)
    }

    static func hasType(_ value: OpaquePointer, _ signature: String) -> Bool {
        guard g_variant_type_string_is_valid(signature) != 0 else { return false }
        let type = g_variant_type_new(signature)!
        defer { g_variant_type_free(type) }
        return g_variant_is_of_type(value, type) != 0
    }

    static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        let value = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}
