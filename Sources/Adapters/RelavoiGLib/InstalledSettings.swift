import CGLib

/// GSettings for a schema that may not be installed (another desktop's).
public enum InstalledSettings {
    /// The settings of `schema` when it is installed with all of `keys`; nil
    /// otherwise (g_settings_new aborts on an unknown schema, hence the look-up).
    public static func open(schema: String, keys: [String]) -> UnsafeMutablePointer<GSettings>? {
        guard let source = g_settings_schema_source_get_default(),
            let found = g_settings_schema_source_lookup(source, schema, 1)
        else { return nil }
        let hasKeys = keys.allSatisfy { g_settings_schema_has_key(found, $0) != 0 }
        g_settings_schema_unref(found)
        return hasKeys ? g_settings_new(schema) : nil
    }
}
