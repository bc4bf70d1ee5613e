import CPhoneNumber

/// Phone numbers as people read them, grouped by libphonenumber's
/// international format. Call once per number shown (a session's proxy
/// number does not change), not per banner tick.
public enum PhoneNumberText {
    /// Longer input is not a phone number; it is returned as received.
    static let maxInputLength = 64

    /// Whether libphonenumber could be opened (it is, on first use, with
    /// dlopen): without it every number is returned as received.
    public static var isAvailable: Bool { relavoi_phone_library_available() != 0 }

    /// "+2348000000001" → "+234 800 000 0001". Anything libphonenumber cannot
    /// parse as a valid number (no leading +, an unknown country code, wrong
    /// length, not text at all) is returned unchanged.
    public static func international(_ number: String) -> String {
        guard number.utf8.count <= maxInputLength, !number.utf8.contains(0) else { return number }
        var buffer = [CChar](repeating: 0, count: 48)
        var length = relavoi_format_international(number, &buffer, buffer.count)
        if length >= buffer.count {
            buffer = [CChar](repeating: 0, count: length + 1)
            length = relavoi_format_international(number, &buffer, buffer.count)
        }
        guard length > 0, length < buffer.count else { return number }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
