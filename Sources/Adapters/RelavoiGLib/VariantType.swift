import CGLib

/// GVariant types that live for the whole process. `g_variant_type_checked_("b")`
/// from Swift would point into a temporary C string that is gone once that
/// call returns, so a type used later (an async D-Bus call) would read garbage.
public enum VariantType {
    nonisolated(unsafe) public static let boolean = make("b")
    nonisolated(unsafe) public static let string = make("s")
    nonisolated(unsafe) public static let variant = make("v")
    nonisolated(unsafe) public static let variantTuple = make("(v)")
    /// A hint of a notification (`{sv}`).
    nonisolated(unsafe) public static let hintEntry = make("{sv}")
    /// The answer to `Notify` (`(u)`).
    nonisolated(unsafe) public static let notifyReply = make("(u)")

    /// A type owned by the caller (free with `g_variant_type_free`).
    public static func make(_ signature: String) -> OpaquePointer {
        g_variant_type_new(signature)
    }
}
