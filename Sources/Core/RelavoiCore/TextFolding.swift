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
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII folds by case alone.
            let needle = Array(word.utf8)
            let lowered = utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard lowered.count >= needle.count else { return false }
            return (0...(lowered.count - needle.count)).contains { start in
                lowered[start..<(start + needle.count)].elementsEqual(needle)
            }
        }
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
