import CGLib

/// A GError's message as text, the error freed: the one helper every adapter
/// uses (nil gives "unknown error").
public enum GErrorText {
    public static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
