import CGLib
import FoundationEssentials
import Glibc
import RelavoiGLib

/// Writes settings (`api-key`, `tenant-id`, …) into the `[agent]` group of
/// `agent.conf` in one go, keeping every other key and comment (GKeyFile
/// load → set → save). The directory is created 0700 and the file is
/// written 0600 (atomically, by rename).
enum AgentConfigWriter {
    struct WriteError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    static let group = "agent"

    /// `$XDG_CONFIG_HOME/relavoi/agent.conf` (or `~/.config/…`).
    static var defaultPath: String { String(cString: g_get_user_config_dir()) + "/relavoi/agent.conf" }

    /// Sets each key to its value, in this order.
    static func set(_ values: [(key: String, value: String)], path: String) throws(WriteError) {
        let directory = g_path_get_dirname(path)!
        defer { g_free(directory) }
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            throw WriteError(description: "cannot create \(String(cString: directory)): \(errnoText())")
        }
        let file = g_key_file_new()!
        defer { g_key_file_free(file) }
        var error: UnsafeMutablePointer<GError>?
        if g_file_test(path, G_FILE_TEST_EXISTS) != 0 {
            let flags = GKeyFileFlags(
                rawValue: G_KEY_FILE_KEEP_COMMENTS.rawValue | G_KEY_FILE_KEEP_TRANSLATIONS.rawValue)
            guard g_key_file_load_from_file(file, path, flags, &error) != 0 else {
                // Never overwrite a file we could not read: it may hold settings we would lose.
                throw WriteError(description: "cannot read \(path) (left unchanged): \(GErrorText.take(error))")
            }
        }
        for (key, value) in values { g_key_file_set_string(file, group, key, value) }
        var length: gsize = 0
        guard let data = g_key_file_to_data(file, &length, &error) else {
            throw WriteError(description: "cannot write \(path): \(GErrorText.take(error))")
        }
        defer { g_free(data) }
        guard
            g_file_set_contents_full(path, data, gssize(length), G_FILE_SET_CONTENTS_CONSISTENT, 0o600, &error) != 0
        else {
            throw WriteError(description: "cannot write \(path): \(GErrorText.take(error))")
        }
    }

    private static func errnoText() -> String { String(cString: g_strerror(errno)) }
}
