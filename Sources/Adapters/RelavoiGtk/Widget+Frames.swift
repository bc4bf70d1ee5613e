import CAdw
import RelavoiGLib

extension Widget {
    /// Calls `run` once, when the widget's first frame is drawn (GTK's tick callback).
    public func onFirstFrame(_ run: @escaping @MainActor () -> Void) {
        let tick: GtkTickCallback = { _, _, data in
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated { Unmanaged<SignalClosure>.fromOpaque(data!).takeUnretainedValue().run(nil) }
            return gboolean(0)  // G_SOURCE_REMOVE
        }
        let release: GDestroyNotify = { data in Unmanaged<SignalClosure>.fromOpaque(data!).release() }
        gtk_widget_add_tick_callback(
            widget, tick, Unmanaged.passRetained(SignalClosure { _ in run() }).toOpaque(), release)
    }

    /// The default icon of the process's windows (the app's icon name).
    public static func setDefaultIcon(_ name: String) { gtk_window_set_default_icon_name(name) }

    /// Adds a folder holding `hicolor/...` to the default display's icon theme (for a
    /// program run from the build tree, whose icons are not installed).
    public static func addIconSearchPath(_ folder: String) {
        guard let display = gdk_display_get_default() else { return }
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), folder)
    }

    /// Adds CSS rules over the theme's for every window of the default display.
    public static func addStyleSheet(_ css: String) {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }
}
