import FoundationEssentials

/// Parsers for settings values.
public enum SettingsValue {
    public static func bool(_ raw: String, key: String) throws(SettingsError) -> Bool {
        switch raw.trimmingWhitespace().lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw SettingsError(key: key, message: "expected true or false, got \"\(raw.prefix(40))\"")
        }
    }
}
