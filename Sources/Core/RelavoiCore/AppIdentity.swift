/// The app a `LiveActivityManager`'s banners belong to, as a Live Activity
/// belongs to its app on iOS: notification servers show its name, and GNOME
/// and KDE list the banners under its desktop file (the `desktop-entry`
/// hint), with that app's notification settings. Each field left nil is
/// the host's own, read when the first banner is shown.
public struct AppIdentity: Sendable, Equatable {
    /// The name shown with each banner; nil: `g_get_application_name()`.
    public var appName: String?
    /// The desktop file's id, without `.desktop`; nil: the default
    /// `GApplication`'s id, else `g_get_prgname()`.
    public var desktopEntry: String?
    /// The icon of banners about the app (not a call's badge); nil: the
    /// desktop entry's id, as icons are named by convention.
    public var iconName: String?

    /// An identity; nil fields are the host's own.
    public init(appName: String? = nil, desktopEntry: String? = nil, iconName: String? = nil) {
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.iconName = iconName
    }
}
