import CGLib
import FoundationEssentials
import RelavoiGLib

/// Watches the desktop's Do Not Disturb: GNOME's `show-banners` setting and
/// the `Inhibited` property KDE Plasma's server exposes. Runs on the main
/// loop; every D-Bus call is asynchronous so a hung server cannot stall it.
@MainActor
public final class DoNotDisturbMonitor {
    public private(set) var isOn = false
    private var gnomeBannersOff = false
    private var serverInhibited = false
    private let onChange: @MainActor (Bool) -> Void
    private var settings: UnsafeMutablePointer<GSettings>?
    private var bus: OpaquePointer?
    private var subscription: guint = 0

    public init(onChange: @escaping @MainActor (Bool) -> Void) {
        self.onChange = onChange
    }

    public func start() {
        watchGnomeSettings()
        watchInhibitedProperty()
    }

    private func recompute() {
        let now = gnomeBannersOff || serverInhibited
        guard now != isOn else { return }
        isOn = now
        Log.info("do not disturb is \(now ? "on" : "off")")
        onChange(now)
    }

    // MARK: GNOME

    private func watchGnomeSettings() {
        // Looking the schema up first: g_settings_new aborts on an unknown schema.
        guard let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, "org.gnome.desktop.notifications", 1)
        else { return }
        let hasKey = g_settings_schema_has_key(schema, "show-banners") != 0
        g_settings_schema_unref(schema)
        guard hasKey, let settings = g_settings_new("org.gnome.desktop.notifications") else { return }
        self.settings = settings
        gnomeBannersOff = g_settings_get_boolean(settings, "show-banners") == 0
        let changed:
            @convention(c) (UnsafeMutablePointer<GSettings>?, UnsafePointer<gchar>?, UnsafeMutableRawPointer?) -> Void =
                { settings, _, data in
                    let monitor = Unmanaged<DoNotDisturbMonitor>.fromOpaque(data!).takeUnretainedValue()
                    MainActor.assumeIsolated {
                        monitor.gnomeBannersOff = g_settings_get_boolean(settings, "show-banners") == 0
                        monitor.recompute()
                    }
                }
        g_signal_connect_data(
            UnsafeMutableRawPointer(settings), "changed::show-banners", unsafeBitCast(changed, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
        recompute()
    }

    // MARK: KDE Plasma's Inhibited property

    private func watchInhibitedProperty() {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return }
        self.bus = bus
        let changed: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
            let monitor = Unmanaged<DoNotDisturbMonitor>.fromOpaque(data!).takeUnretainedValue()
            // (interface, changed properties a{sv}, invalidated as)
            guard let parameters, let properties = g_variant_get_child_value(parameters, 1) else { return }
            defer { g_variant_unref(properties) }
            if let value = g_variant_lookup_value(properties, "Inhibited", VariantType.boolean) {
                let inhibited = g_variant_get_boolean(value) != 0
                g_variant_unref(value)
                MainActor.assumeIsolated {
                    monitor.serverInhibited = inhibited
                    monitor.recompute()
                }
            }
        }
        subscription = g_dbus_connection_signal_subscribe(
            bus, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", NotificationsBus.path,
            NotificationsBus.interface, G_DBUS_SIGNAL_FLAGS_NONE, changed,
            Unmanaged.passUnretained(self).toOpaque(), nil)
        let reply: GAsyncReadyCallback = { source, result, data in
            let monitor = Unmanaged<DoNotDisturbMonitor>.fromOpaque(data!).takeUnretainedValue()
            var error: UnsafeMutablePointer<GError>?
            guard let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                // Servers without the property (all but Plasma) answer with an error.
                Log.debug(
                    "notification server has no Inhibited property: \(error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "")"
                )
                g_error_free(error)
                return
            }
            defer { g_variant_unref(value) }
            guard let boxed = g_variant_get_child_value(value, 0), let inner = g_variant_get_variant(boxed) else {
                return
            }
            defer {
                g_variant_unref(inner)
                g_variant_unref(boxed)
            }
            guard g_variant_is_of_type(inner, VariantType.boolean) != 0 else { return }
            let inhibited = g_variant_get_boolean(inner) != 0
            MainActor.assumeIsolated {
                monitor.serverInhibited = inhibited
                monitor.recompute()
            }
        }
        // Servers other than Plasma answer with an error: then it stays off.
        let parameters = GVariantValues.tuple([
            g_variant_new_string(NotificationsBus.interface), g_variant_new_string("Inhibited"),
        ])
        g_dbus_connection_call(
            bus, NotificationsBus.name, NotificationsBus.path, "org.freedesktop.DBus.Properties",
            "Get", parameters, VariantType.variantTuple, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, reply,
            Unmanaged.passUnretained(self).toOpaque())
    }
}
