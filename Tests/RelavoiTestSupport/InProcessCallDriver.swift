import RelavoiAgentKit
import RelavoiBanners
import RelavoiCore
import RelavoiSettings

/// The agent's own CallDriver in process, on the banner driver the agent
/// uses, for the bench's firehose micro benchmark: the bench's package does
/// not see the package-level initializer.
@MainActor
public enum InProcessCallDriver {
    public static func make(settings: AgentSettings, lookup: SessionLookup) -> CallDriver {
        CallDriver(settings: settings, lookup: lookup)
    }

    /// Ends the shared banner driver's delivery thread, as the agent does at exit.
    public static func shutDownBanners(timeout: Double) {
        BannerDriver.shared.shutdown(timeout: timeout)
    }
}
