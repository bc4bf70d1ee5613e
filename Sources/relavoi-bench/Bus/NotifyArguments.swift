import CGLib
import RelavoiGLib

/// The `Notify` call's arguments `(susssasa{sv}i)`, as a floating GVariant.
enum NotifyArguments {
    /// Made once: `g_variant_type_checked_("a{sv}")` would point into a temporary C string.
    private nonisolated(unsafe) static let hintsType = VariantType.make("a{sv}")

    static func make(
        appName: String, replacesId: UInt32, icon: String, summary: String, body: String,
        hints: [(String, OpaquePointer?)], timeout: Int32
    ) -> OpaquePointer? {
        var builder = GVariantBuilder()
        g_variant_builder_init(&builder, hintsType)
        for (key, value) in hints {
            g_variant_builder_add_value(
                &builder, g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value)))
        }
        let children: [OpaquePointer?] = [
            g_variant_new_string(appName), g_variant_new_uint32(replacesId), g_variant_new_string(icon),
            g_variant_new_string(summary), g_variant_new_string(body), g_variant_new_strv(nil, 0),
            g_variant_builder_end(&builder), g_variant_new_int32(timeout),
        ]
        return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
}
