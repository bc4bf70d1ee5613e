import CGLib

/// A GNOME Shell extension in GNOME's own places: its folder under the XDG data
/// directories, and the `org.gnome.shell` settings the shell reads at login.
public enum GnomeShellExtensionSetup {
    /// Whether `uuid`'s folder (with its metadata.json) is in the user's or the system's
    /// `gnome-shell/extensions`, as the shell looks for it.
    public static func isInstalled(uuid: String) -> Bool {
        var directories = [String(cString: g_get_user_data_dir())]
        if var system = g_get_system_data_dirs() {
            while let directory = system.pointee {
                directories.append(String(cString: directory))
                system += 1
            }
        }
        return directories.contains { directory in
            g_file_test("\(directory)/gnome-shell/extensions/\(uuid)/metadata.json", G_FILE_TEST_IS_REGULAR) != 0
        }
    }

    /// Adds `uuid` to `org.gnome.shell enabled-extensions` (and takes it out of
    /// `disabled-extensions`), which the shell reads when it starts: for an extension the
    /// running shell does not know yet. False when GNOME Shell's settings are not installed.
    public static func enableAtNextLogin(uuid: String) -> Bool {
        guard
            let settings = InstalledSettings.open(
                schema: "org.gnome.shell", keys: ["enabled-extensions", "disabled-extensions"])
        else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        var enabled = strings(settings, "enabled-extensions")
        if !enabled.contains(uuid) { enabled.append(uuid) }
        let wrote =
            set(settings, "enabled-extensions", enabled)
            && set(settings, "disabled-extensions", strings(settings, "disabled-extensions").filter { $0 != uuid })
        g_settings_sync()
        return wrote
    }

    private static func strings(_ settings: UnsafeMutablePointer<GSettings>, _ key: String) -> [String] {
        guard let list = g_settings_get_strv(settings, key) else { return [] }
        defer { g_strfreev(list) }
        var values: [String] = []
        var item = list
        while let value = item.pointee {
            values.append(String(cString: value))
            item += 1
        }
        return values
    }

    private static func set(_ settings: UnsafeMutablePointer<GSettings>, _ key: String, _ values: [String]) -> Bool {
        var copies = values.map { strdup($0) }
        copies.append(nil)
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                g_settings_set_strv(settings, key, $0) != 0
            }
        }
    }
}
