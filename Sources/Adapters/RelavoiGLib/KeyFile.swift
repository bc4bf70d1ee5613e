import CGLib

/// Reads a GKeyFile (`.ini`-style settings) into plain strings; validating
/// the values is the caller's job.
public enum KeyFile {
    public struct LoadError: Error, CustomStringConvertible {
        /// The key whose value could not be read, when it is one key's fault.
        public var key: String? = nil
        public let description: String
    }

    /// Group name → key → value (unescaped). A missing file is an empty result.
    public static func load(path: String) throws -> [String: [String: String]] {
        guard g_file_test(path, G_FILE_TEST_EXISTS) != 0 else { return [:] }
        let file = g_key_file_new()
        defer { g_key_file_free(file) }
        var error: UnsafeMutablePointer<GError>?
        guard g_key_file_load_from_file(file, path, G_KEY_FILE_NONE, &error) != 0 else {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable"
            g_error_free(error)
            throw LoadError(description: "\(path): \(message)")
        }
        var result: [String: [String: String]] = [:]
        for group in strings(g_key_file_get_groups(file, nil)) {
            var entries: [String: String] = [:]
            for key in strings(g_key_file_get_keys(file, group, nil, nil)) {
                // Unescaped (`\s`, `\n`, ...); a value GLib cannot unescape (a bad
                // escape) is an error naming its key, never a silently dropped key.
                var valueError: UnsafeMutablePointer<GError>?
                let value = g_key_file_get_string(file, group, key, &valueError)
                guard let value, valueError == nil else {
                    g_free(value)
                    let message = valueError.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unreadable"
                    g_error_free(valueError)
                    throw LoadError(key: key, description: "\(path): \(key): \(message)")
                }
                entries[key] = String(cString: value)
                g_free(value)
            }
            result[group] = entries
        }
        return result
    }

    /// `$XDG_CONFIG_HOME` (or `~/.config`).
    public static var userConfigDirectory: String { String(cString: g_get_user_config_dir()) }

    /// `$XDG_CONFIG_DIRS` (or `/etc/xdg`), most important first, as GLib reads it once per process.
    public static var systemConfigDirectories: [String] {
        guard let dirs = g_get_system_config_dirs() else { return [] }
        var out: [String] = []
        var index = 0
        while let item = dirs[index] {
            out.append(String(cString: item))
            index += 1
        }
        return out
    }

    private static func strings(_ vector: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
        guard let vector else { return [] }
        defer { g_strfreev(vector) }
        var out: [String] = []
        var index = 0
        while let item = vector[index] {
            out.append(String(cString: item))
            index += 1
        }
        return out
    }
}
