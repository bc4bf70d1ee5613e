import CGLib
import RelavoiGLib

/// The `Notify` arguments `(susssasa{sv}i)` the bench's own clients send
/// (the D-Bus floor and the reference tickers), built here rather than by the
/// agent's code, as another program would build them.
enum NotifyTuple {
    /// Actions as id and label in turn, hints as floating values. A floating GVariant.
    static func make(
        appName: String, replacesId: UInt32, icon: String = "", summary: String, body: String,
        actions: [String] = [], hints: [(key: String, value: OpaquePointer)], timeout: Int32
    ) -> OpaquePointer {
        let entries = hints.map {
            g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_variant($0.value))!
        }
        return GVariantValues.tuple([
            g_variant_new_string(appName), g_variant_new_uint32(replacesId), g_variant_new_string(icon),
            g_variant_new_string(summary), g_variant_new_string(body),
            GVariantValues.array(of: VariantType.string, actions.map { g_variant_new_string($0) }),
            GVariantValues.array(of: VariantType.hintEntry, entries), g_variant_new_int32(timeout),
        ])
    }
}
