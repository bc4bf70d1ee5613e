/// A GKeyFile reader in the small, as `KeyFile.load` + `g_key_file_get_string`
/// see a file: `[group]` lines, `key = value` lines, `#` comments, the escapes
/// `\s \n \t \r \\` in values. Lines GKeyFile refuses make the file unreadable
/// (nil), values with a bad escape are left out, as there. A line ends at its
/// first NUL byte: GKeyFile reads each line with C string functions, and the
/// agent takes keys and values as C strings (`String(cString:)`), so nothing
/// after a NUL ever reaches it. Pure, so the
/// fuzzer needs no GLib. Shared by fuzz-settings and the seed replay in
/// RelavoiCoreTests, so the seeds mean the same to both.
public enum KeyFileText {
    public static func parse(_ text: String) -> [String: [String: String]]? {
        var groups: [String: [String: String]] = [:]
        var group: String?
        // "\r\n" is one Character in Swift: both end a line (GKeyFile then drops the "\r").
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if let nul = line.firstIndex(of: "\0") { line = line[..<nul] }
            if line.last == "\r" { line = line.dropLast() }
            line = line.drop(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.first == "#" { continue }
            if line.first == "[" {
                guard line.last == "]" else { return nil }
                let name = line.dropFirst().dropLast()
                guard !name.isEmpty, !name.contains("["), !name.contains("]"),
                    !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                else { return nil }
                group = String(name)
                if groups[String(name)] == nil { groups[String(name)] = [:] }
                continue
            }
            guard let group, let equals = line.firstIndex(of: "=") else { return nil }
            var key = line[..<equals]
            while key.last == " " || key.last == "\t" { key = key.dropLast() }
            guard !key.isEmpty else { return nil }
            let raw = line[line.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
            if let value = unescape(raw) { groups[group, default: [:]][String(key)] = value }
        }
        return groups
    }

    /// GKeyFile's string escapes; nil for an unknown or a trailing backslash.
    public static func unescape(_ raw: Substring) -> String? {
        var out = ""
        var iterator = raw.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                out.append(character)
                continue
            }
            switch iterator.next() {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            default: return nil
            }
        }
        return out
    }
}
