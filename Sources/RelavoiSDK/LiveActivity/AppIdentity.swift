import RelavoiGLib
import RelavoiNotify

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

    /// The relavoi-agent's own: "Relavoi", com.relavoi.Agent.
    package static let relavoiAgent = AppIdentity(
        appName: BannerOwner.relavoiAgent.appName,
        desktopEntry: BannerOwner.relavoiAgent.desktopEntry,
        iconName: BannerOwner.relavoiAgent.iconName)

    /// Every field filled in, the host's where nil.
    func resolved() -> BannerOwner {
        let entry = desktopEntry ?? HostApplication.id
        return BannerOwner(
            appName: appName ?? HostApplication.name, desktopEntry: entry, iconName: iconName ?? entry)
    }
}

extension BannerDriver {
    /// The banners' owner: the identity in the config given to
    /// `Relavoi.initialize`, else the host process's.
    static func bannerOwner() -> BannerOwner {
        (Relavoi.current?.config.appIdentity ?? AppIdentity()).resolved()
    }
}
