import FoundationEssentials
import RelavoiBanners
import RelavoiCore
import RelavoiStream
import Synchronization

/// The SDK's entry point, as on iOS:
///
///     Relavoi.initialize(apiKey: key, apiSecret: secret, tenantId: tenant)
///     await Relavoi.shared.events.connect()
///
/// Callable from any thread or actor; the stream runs on the GLib main loop.
public final class Relavoi: Sendable {
    private static let instance = Mutex<Relavoi?>(nil)

    /// Sets up the shared instance. Calling it again replaces the instance
    /// (the old stream is disconnected). An insecure URL in `config` is
    /// logged when the stream is first used, and `connect()` then refuses to run.
    public static func initialize(
        apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig = RelavoiConfig()
    ) {
        let new = Relavoi(apiKey: apiKey, apiSecret: apiSecret, tenantId: tenantId, config: config)
        // Banners shown from now on are this app's (`AppIdentity`).
        BannerDriver.identity.withLock { $0 = config.appIdentity }
        let old = instance.withLock { current in
            defer { current = new }
            return current
        }
        if let old {
            Task { await old.events.disconnect() }
        }
    }

    /// The instance made by `initialize`; calling it before is a programming error.
    public static var shared: Relavoi {
        guard let current = instance.withLock({ $0 }) else {
            fatalError("Relavoi.initialize(apiKey:apiSecret:tenantId:) was not called")
        }
        return current
    }

    /// Whether `initialize` was called.
    public static var isInitialized: Bool { instance.withLock { $0 != nil } }

    /// The tenant this instance streams.
    public let tenantId: String
    /// The configuration given to `initialize`.
    public let config: RelavoiConfig
    /// The real-time event stream.
    public let events: RelavoiEvents

    init(
        apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig,
        random: Backoff.RandomSource? = nil
    ) {
        self.tenantId = tenantId
        self.config = config
        events = RelavoiEvents(
            apiKey: apiKey, apiSecret: apiSecret, tenantId: tenantId, config: config, random: random)
    }
}

extension Relavoi: CustomStringConvertible {
    /// Never shows credentials.
    public var description: String { "Relavoi(tenant: \(tenantId))" }
}
