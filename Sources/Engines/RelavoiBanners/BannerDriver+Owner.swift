import RelavoiCore
import RelavoiGLib
import RelavoiNotify
import Synchronization

extension BannerDriver {
    /// Whose banners these are: set by `Relavoi.initialize` (an SDK host's
    /// config) or by the agent, before the first banner; read when the
    /// delivery thread starts.
    nonisolated package static let identity = Mutex<AppIdentity>(AppIdentity())

    /// The banners' owner: `identity`, the host process's where a field is nil.
    static func bannerOwner() -> BannerOwner {
        identity.withLock { $0 }.resolved()
    }
}

extension AppIdentity {
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
