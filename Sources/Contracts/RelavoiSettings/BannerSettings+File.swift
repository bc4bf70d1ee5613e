import RelavoiCore
import RelavoiGLib

extension BannerSettings {
    /// The keys of the table that `BannerSettings` holds.
    package static let settings: [Setting] = [.bannersEnabled, .keepOnScreen, .ringThroughDoNotDisturb]

    /// Reads the banner keys from a settings group; other keys are left to
    /// others, bad values are reported.
    package init(group: [String: String]) throws(SettingsError) {
        var settings = AgentSettings()
        for setting in Self.settings {
            if let raw = group[setting.key] { try setting.apply(raw.trimmingWhitespace(), to: &settings) }
        }
        self = settings.banners
    }

    /// The banner keys of `$XDG_CONFIG_HOME/relavoi/agent.conf`, so an app
    /// using the SDK honours the user's choice (`banners-enabled = false`)
    /// as an iOS app honours Live Activities being turned off. A missing or
    /// unreadable file gives the defaults (with a log line for the latter).
    package static func loadUserSettings(path: String = AgentSettingsFile.defaultPath)
        -> BannerSettings
    {
        do {
            let groups = try KeyFile.load(path: path)
            return try BannerSettings(group: groups[AgentSettings.group] ?? [:])
        } catch {
            Log.warning("banner settings: \(error); using the defaults")
            return BannerSettings()
        }
    }
}
