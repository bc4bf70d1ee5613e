import RelavoiCore
import RelavoiGLib

extension BannerSettings {
    /// The banner keys of `$XDG_CONFIG_HOME/relavoi/agent.conf`, so an app
    /// using the SDK honours the user's choice (`banners-enabled = false`)
    /// as an iOS app honours Live Activities being turned off. A missing or
    /// unreadable file gives the defaults (with a log line for the latter).
    package static func loadUserSettings(path: String = KeyFile.userConfigDirectory + "/relavoi/agent.conf")
        -> BannerSettings
    {
        do {
            let groups = try KeyFile.load(path: path)
            return try BannerSettings(group: groups["agent"] ?? [:])
        } catch {
            Log.warning("banner settings: \(error); using the defaults")
            return BannerSettings()
        }
    }
}
