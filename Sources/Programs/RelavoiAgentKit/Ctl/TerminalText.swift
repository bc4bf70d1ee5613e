/// Text from the bus or the command line, made safe to print on a terminal:
/// control characters and bidirectional overrides become U+FFFD, and long
/// text is cut.
enum TerminalText {
    static func safe(_ text: String, limit: Int = 1024) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(limit) {
            out.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out) + (text.unicodeScalars.count > limit ? "…" : "")
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (ESC, CSI, …)
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi marks and overrides
        default: return false
        }
    }
}
