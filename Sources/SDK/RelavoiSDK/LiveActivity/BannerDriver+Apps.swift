import RelavoiBanners
import RelavoiCore
import RelavoiSettings

extension BannerDriver {
    /// The banners as an app using the SDK has them: with the person's banner settings
    /// from their agent.conf (read once), so `banners-enabled = false` turns them off.
    @MainActor static let forApps: BannerDriver = {
        let driver = BannerDriver.shared
        driver.settings = BannerSettings.loadUserSettings()
        return driver
    }()
}
