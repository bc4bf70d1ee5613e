/// The shapes of Relavoi credentials: API key `rk_live_`/`rk_test_` + 48 hex
/// digits, API secret `rs_` + 64 hex digits.
///
/// `login` refuses other shapes (a paste error or the two swapped is far more
/// likely than a new format) unless `--force`, which accepts them with a
/// warning. Whitespace and control characters are never accepted. Problems
/// about the secret never quote it.
public enum CredentialShape {
    public enum Verdict: Equatable, Sendable {
        case ok
        /// An unexpected shape: refused, or accepted with `--force`.
        case unusual(String)
        /// Never accepted.
        case invalid(String)
    }

    public static func checkKey(_ key: String) -> Verdict {
        if key.isEmpty { return .invalid("the API key is empty") }
        if hasUnsafeCharacters(key) { return .invalid("the API key holds spaces or control characters") }
        if key.hasPrefix("rs_") { return .invalid("that looks like the API secret (rs_…), not the API key (rk_…)") }
        for prefix in ["rk_live_", "rk_test_"] where key.hasPrefix(prefix) {
            if isHex(key.dropFirst(prefix.count), count: 48) { return .ok }
        }
        return .unusual(
            "the API key should be rk_live_ or rk_test_ followed by 48 hex digits (it has \(key.count) characters)")
    }

    public static func checkSecret(_ secret: String) -> Verdict {
        if secret.isEmpty { return .invalid("the API secret is empty") }
        if hasUnsafeCharacters(secret) { return .invalid("the API secret holds spaces or control characters") }
        if secret.hasPrefix("rk_") {
            return .invalid("that looks like the API key (rk_…), not the API secret (rs_…)")
        }
        if secret.hasPrefix("rs_"), isHex(secret.dropFirst(3), count: 64) { return .ok }
        return .unusual("the API secret should be rs_ followed by 64 hex digits")
    }

    private static func isHex(_ text: Substring, count: Int) -> Bool {
        text.utf8.count == count
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
    }

    private static func hasUnsafeCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        }
    }
}
