import CGLib

/// Reads `Diagnostics()`'s reply, `(a{sx})`: for `ctl diagnostics`, the soak and tests.
public enum AgentDiagnosticsReply {
    /// The figures in the agent's order; empty if `reply` has another type.
    public static func figures(_ reply: OpaquePointer) -> [(name: String, value: Int64)] {
        guard GVariantValues.hasType(reply, AgentBus.diagnosticsSignature) else { return [] }
        let array = GVariantValues.child(reply, 0)
        defer { g_variant_unref(array) }
        return (0..<GVariantValues.count(array)).map { index in
            let entry = GVariantValues.child(array, index)
            defer { g_variant_unref(entry) }
            return (GVariantValues.string(entry, 0), GVariantValues.int64(entry, 1))
        }
    }
}
