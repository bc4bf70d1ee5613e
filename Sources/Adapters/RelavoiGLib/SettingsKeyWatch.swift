import CGLib

/// Follows one boolean GSettings key on the main loop: its value now, and
/// each change, until the watch is dropped.
@MainActor
public final class SettingsKeyWatch {
    private final class Handle {
        weak var watch: SettingsKeyWatch?
        init(_ watch: SettingsKeyWatch) { self.watch = watch }
    }

    public private(set) var value: Bool
    private let settings: UnsafeMutablePointer<GSettings>
    private let key: String
    private let onChange: @MainActor (Bool) -> Void
    private var handler: gulong = 0

    /// Nil when the schema or the key is not installed.
    public init?(schema: String, key: String, onChange: @escaping @MainActor (Bool) -> Void) {
        guard let settings = InstalledSettings.open(schema: schema, keys: [key]) else { return nil }
        self.settings = settings
        self.key = key
        self.onChange = onChange
        value = g_settings_get_boolean(settings, key) != 0
        let changed:
            @convention(c) (UnsafeMutablePointer<GSettings>?, UnsafePointer<gchar>?, UnsafeMutableRawPointer?) -> Void =
                { _, _, data in
                    nonisolated(unsafe) let data = data
                    MainActor.assumeIsolated {
                        Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue().watch?.reread()
                    }
                }
        let destroy: GClosureNotify = { data, _ in Unmanaged<Handle>.fromOpaque(data!).release() }
        handler = g_signal_connect_data(
            UnsafeMutableRawPointer(settings), "changed::\(key)", unsafeBitCast(changed, to: GCallback.self),
            Unmanaged.passRetained(Handle(self)).toOpaque(), destroy, GConnectFlags(0))
    }

    isolated deinit {
        g_signal_handler_disconnect(UnsafeMutableRawPointer(settings), handler)
        g_object_unref(UnsafeMutableRawPointer(settings))
    }

    private func reread() {
        let now = g_settings_get_boolean(settings, key) != 0
        guard now != value else { return }
        value = now
        onChange(now)
    }
}
