import CGLib
import Glibc

extension KeyFile {
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Sets each key of `group` to its value, in this order, keeping every
    /// other key, group and comment (GKeyFile load → set → save). Missing
    /// directories are made 0700; the file is replaced atomically (by rename)
    /// with `mode`. A file that exists but cannot be read is left as it is.
    public static func set(
        _ values: [(key: String, value: String)], group: String, path: String, mode: Int32 = 0o600
    ) throws(WriteError) {
        try change(group: group, path: path, mode: mode) { file in
            for (key, value) in values { g_key_file_set_string(file, group, key, value) }
        }
    }

    /// Removes `keys` from `group` (a key that is not there is no error), keeping
    /// everything else, as `set` does. A missing file stays missing.
    public static func remove(_ keys: [String], group: String, path: String, mode: Int32 = 0o600)
        throws(WriteError)
    {
        guard g_file_test(path, G_FILE_TEST_EXISTS) != 0 else { return }
        try change(group: group, path: path, mode: mode) { file in
            for key in keys { g_key_file_remove_key(file, group, key, nil) }
        }
    }

    private static func change(group: String, path: String, mode: Int32, _ edit: (OpaquePointer) -> Void)
        throws(WriteError)
    {
        let directory = g_path_get_dirname(path)!
        defer { g_free(directory) }
        guard g_mkdir_with_parents(directory, 0o700) == 0 else {
            let reason = String(cString: g_strerror(errno))
            throw WriteError(description: "cannot create \(String(cString: directory)): \(reason)")
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
        edit(file)
        var length: gsize = 0
        guard let data = g_key_file_to_data(file, &length, &error) else {
            throw WriteError(description: "cannot write \(path): \(GErrorText.take(error))")
        }
        defer { g_free(data) }
        guard
            g_file_set_contents_full(path, data, gssize(length), G_FILE_SET_CONTENTS_CONSISTENT, mode, &error) != 0
        else {
            throw WriteError(description: "cannot write \(path): \(GErrorText.take(error))")
        }
    }
}
