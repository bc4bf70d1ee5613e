/// The few text operations the core needs, on the standard library alone
/// (no Foundation: no ICU in the agent).
extension StringProtocol {
    /// Without leading and trailing spaces and tabs (and other Unicode whitespace).
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Whether `word` (ASCII, lowercase) appears when case, width and the
    /// common Latin diacritics are ignored: "ＶＥＲＩＦＩＥＤ" and "Vérifié" hold "verif".
    public func containsFolded(_ word: String) -> Bool {
        var folded = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                folded.append(TextFolding.base(of: lower))
            }
        }
        return String(folded).contains(word)
    }
}

enum TextFolding {
    /// A fullwidth form as its ASCII letter, a Latin letter with a diacritic as its base letter.
    static func base(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        if (0xFF01...0xFF5E).contains(value) { return Unicode.Scalar(value - 0xFEE0) ?? scalar }
        for (base, variants) in latinVariants where variants.unicodeScalars.contains(scalar) {
            return base
        }
        return scalar
    }

    private static let latinVariants: [(Unicode.Scalar, String)] = [
        ("a", "àáâãäåāăą"), ("c", "çćĉċč"), ("e", "èéêëēĕėęě"), ("f", "ƒ"), ("i", "ìíîïĩīĭįı"),
        ("n", "ñńņňŉ"), ("o", "òóôõöøōŏő"), ("r", "ŕŗř"), ("u", "ùúûüũūŭůűų"), ("v", "ʋ"), ("y", "ýÿŷ"),
    ]
}

/// Reading `%XX` escapes (`StreamEndpoint` writes them).
public enum PercentEncoding {
    /// `text` with its `%XX` escapes decoded; nil when an escape is malformed or the result is not UTF-8.
    public static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(nibble), let low = utf8.next().flatMap(nibble) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
