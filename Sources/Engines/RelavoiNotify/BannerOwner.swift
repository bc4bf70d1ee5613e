import RelavoiCore
import RelavoiMachines

/// Whose banners these are: the app name libnotify sends with every
/// notification, the `desktop-entry` hint (GNOME and KDE list the banners
/// under that desktop file, with its notification settings) and the icon of
/// the banners that are about the app rather than a call.
public struct BannerOwner: Sendable, Equatable {
    public var appName: String
    public var desktopEntry: String
    public var iconName: String

    public init(appName: String, desktopEntry: String, iconName: String) {
        self.appName = appName
        self.desktopEntry = desktopEntry
        self.iconName = iconName
    }

    /// The agent's own: "Relavoi", com.relavoi.Agent.
    public static let relavoiAgent = BannerOwner(
        appName: BannerRenderer.appName, desktopEntry: BannerRenderer.appId, iconName: BannerRenderer.appIcon)

    /// The icon to send for `content`: the app icon is this owner's.
    func iconName(for content: NotificationContent) -> String {
        content.iconName == BannerRenderer.appIcon ? iconName : content.iconName
    }
}
