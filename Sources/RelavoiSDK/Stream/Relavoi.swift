import Foundation
import RelavoiCore

/// The SDK's entry point, as on iOS:
///
///     Relavoi.initialize(apiKey: key, apiSecret: secret, tenantId: tenant)
///     await Relavoi.shared.events.connect()
///
/// Lives on the main actor (the GLib main loop).
@MainActor
public final class Relavoi {
    private static var instance: Relavoi?

    /// Sets up the shared instance. Calling it again replaces the instance
    /// (the old stream is disconnected). An insecure URL in `config` is
    /// logged here, and `connect()` / `get` then refuse to run.
    public static func initialize(
        apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig = RelavoiConfig()
    ) {
        if let old = instance {
            Task { @MainActor in await old.events.disconnect() }
        }
        instance = Relavoi(apiKey: apiKey, apiSecret: apiSecret, tenantId: tenantId, config: config)
    }

    /// The instance made by `initialize`; calling it before is a programming error.
    public static var shared: Relavoi {
        guard let instance else {
            fatalError("Relavoi.initialize(apiKey:apiSecret:tenantId:) was not called")
        }
        return instance
    }

    public static var isInitialized: Bool { instance != nil }

    nonisolated public let tenantId: String
    nonisolated public let config: RelavoiConfig
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

    /// Authenticated REST GET relative to `config.baseURL`; see `RelavoiEvents.get`.
    public func get(path: String, query: [String: String] = [:]) async throws -> (
        status: Int, body: JSONValue
    ) {
        try await events.get(path: path, query: query)
    }

    /// A valid access token (fetched or refreshed as needed).
    public func accessToken() async throws(RelavoiError) -> String {
        try await events.accessToken()
    }
}

extension Relavoi: CustomStringConvertible {
    /// Never shows credentials.
    nonisolated public var description: String { "Relavoi(tenant: \(tenantId))" }
}
