import FoundationEssentials
import RelavoiCore

/// Turns untrusted strings into display text and formats durations.
public enum BannerText {
    /// Longest label shown, in characters (grapheme clusters), ellipsis included.
    public static let maximumLabelLength = 48

    /// Elapsed time as `mm:ss`, or `h:mm:ss` from an hour on. Negative is 0.
    public static func duration(_ seconds: Int) -> String {
        let total = max(0, seconds)
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let secs = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(two(minutes)):\(two(secs))"
    }

    /// A label as plain display text: control, format (bidi overrides, zero-width)
    /// and line-breaking characters removed, whitespace collapsed, badge-like
    /// symbols removed so a label cannot pose as the Verified badge, long text
    /// cut with an ellipsis. Empty input gives `fallback`.
    public static func label(_ raw: String, fallback: String = "Relavoi call") -> String {
        var text = isCleanASCII(raw) ? raw : cleaned(raw)
        if text.isEmpty { return fallback }
        if text.count > maximumLabelLength {
            text = String(text.prefix(maximumLabelLength - 1))
            while text.last == " " { text.removeLast() }
            text += "…"
        }
        // A label that talks about verification is shown as a quotation, so it
        // cannot be read as the badge, which always comes from the server.
        if text.containsFolded("verif") {
            text = "“\(text)”"
        }
        return text
    }

    /// Printable ASCII with single spaces between words has nothing to clean:
    /// most labels and every number, on every tick, skip the scalar walk.
    private static func isCleanASCII(_ raw: String) -> Bool {
        var lastWasSpace = true
        for byte in raw.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return false }
            if byte == 0x20, lastWasSpace { return false }
            lastWasSpace = byte == 0x20
        }
        return !lastWasSpace
    }

    /// Whitespace collapsed and trimmed, removed scalars gone.
    private static func cleaned(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in raw.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            if isRemoved(scalar) { continue }
            scalars.append(scalar)
            lastWasSpace = false
        }
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        return text
    }

    /// A proxy number as display text (`label`'s cleaning), "unknown number" when empty.
    public static func number(_ raw: String) -> String {
        label(raw, fallback: "unknown number")
    }

    /// Escapes text for servers that render the body as markup.
    public static func escapeMarkup(_ text: String) -> String {
        // The five are ASCII: scalars suffice (no grapheme breaking), and
        // text without them (most ticks) comes back as it is.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Control, format (bidi overrides, zero-width joiners), private-use and
    /// unassigned scalars, and badge look-alikes. Line breaks and tabs are
    /// whitespace and were turned into a space before this is asked.
    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return badgeLookalikes.contains(scalar.value)
        }
    }

    /// Check marks, ballot boxes, shields and warning signs: the badge's vocabulary.
    private static let badgeLookalikes: Set<UInt32> = [
        0x2713, 0x2714, 0x2705, 0x2611, 0x2612, 0x2610, 0x1F5F8, 0x1F6E1, 0x26A0, 0x274C, 0x274E,
        0x2717, 0x2718, 0x1F197, 0x1F44D, 0xFE0F,
    ]
}
