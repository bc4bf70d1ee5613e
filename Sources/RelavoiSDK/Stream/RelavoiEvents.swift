import FoundationEssentials
import RelavoiCore

/// The Relavoi event stream, as `Relavoi.shared.events` on iOS: connect,
/// listen, disconnect.
///
/// Callable from any thread or actor. The stream itself runs on the GLib
/// main loop (the main actor): `connect()` and `disconnect()` hop there, and
/// every handler is called there, one event at a time, in arrival order.
public final class RelavoiEvents: Sendable {
    /// A handler of `addListener`; it runs on the main loop.
    public typealias Listener = @MainActor (RelavoiEvent) -> Void

    private let listeners = ListenerRegistry()
    private let slot: StreamSlot

    init(
        apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig,
        random: Backoff.RandomSource? = nil
    ) {
        let listeners = listeners
        slot = StreamSlot {
            StreamConnectionDriver(
                apiKey: apiKey, apiSecret: apiSecret, tenantId: tenantId, config: config, listeners: listeners,
                random: random)
        }
    }

    /// The stream, made on the main actor at first use.
    @MainActor
    var stream: StreamConnectionDriver { slot.stream }

    // MARK: The iOS SDK's API

    /// Connects and keeps the stream connected (reconnecting with backoff)
    /// until `disconnect()`. Returns once the stream is live or the first
    /// attempt failed (retries go on in the background). Idempotent: a
    /// no-op on a live or connecting stream; while waiting to retry it
    /// retries at once.
    nonisolated(nonsending) public func connect() async {
        await slot.connect()
    }

    /// Closes the stream and stops reconnecting (for logout). Returns once
    /// the close handshake ended, or after at most 2 s.
    nonisolated(nonsending) public func disconnect() async {
        await slot.disconnect()
    }

    /// True only after the server's `connected` frame on the current socket.
    public var isConnected: Bool {
        get async { await slot.isConnected }
    }

    /// Registers `handler` under `key`, at once, from any thread; the same
    /// key replaces the previous handler. Handlers run on the main loop, in
    /// arrival order.
    public func addListener(_ key: String, handler: @escaping Listener) {
        listeners.set(key, .event(handler))
    }

    /// Removes the handler registered under `key`; it is not called again.
    public func removeListener(_ key: String) {
        listeners.remove(key)
    }

    // MARK: For the agent and the tests (package only)

    /// Like `addListener`, with each event's stream id (nil when absent).
    /// Shares the key space with `addListener`.
    package func addFrameListener(_ key: String, handler: @escaping @MainActor (RelavoiEvent, String?) -> Void) {
        listeners.set(key, .frame(handler))
    }

    /// The stream's state now.
    @MainActor package var connectionState: RelavoiConnectionState { stream.connectionState }

    /// Called on every change of `connectionState`: `.connected` after each
    /// welcome (reconcile over REST then: there is no replay), `.connecting`
    /// when a live stream dropped, `.disconnected` after `disconnect()`.
    @MainActor
    package func addConnectionStateListener(
        _ key: String, handler: @escaping @MainActor (RelavoiConnectionState) -> Void
    ) {
        stream.addConnectionStateListener(key, handler: handler)
    }

    @MainActor
    package func removeConnectionStateListener(_ key: String) {
        stream.removeConnectionStateListener(key)
    }

    /// Called each time the token endpoint refuses the key or secret (HTTP 401 or 403).
    @MainActor
    package func addTokenRefusedListener(_ key: String, handler: @escaping @MainActor () -> Void) {
        stream.addTokenRefusedListener(key, handler: handler)
    }

    /// For resume from sleep or network-up; see `StreamConnectionDriver.reconnectNow`.
    @MainActor
    package func reconnectNow() {
        stream.reconnectNow()
    }

    /// A valid access token (fetched or refreshed as needed).
    @MainActor
    package func accessToken() async throws(RelavoiError) -> String {
        try await stream.accessToken()
    }

    /// An authenticated REST GET; see `StreamConnectionDriver.get`.
    @MainActor
    package func get(path: String, query: [String: String] = [:]) async throws -> (status: Int, body: JSONValue) {
        try await stream.get(path: path, query: query)
    }

    @MainActor package var tokenRequestCount: Int { stream.tokenRequestCount }
    @MainActor package var framesReceived: Int { stream.framesReceived }
    @MainActor package var eventsDelivered: Int { stream.eventsDelivered }
    @MainActor package var duplicatesDropped: Int { stream.duplicatesDropped }
    @MainActor package var malformedFrames: Int { stream.malformedFrames }
    @MainActor package var listenerKeys: [String] { listeners.keys }

    /// Sees every log line after scrubbing (tests).
    @MainActor package var logObserver: (@MainActor (StreamLogLevel, String) -> Void)? {
        get { stream.logObserver }
        set { stream.logObserver = newValue }
    }
}

/// Holds the main-actor stream; made lazily, since `Relavoi.initialize` may
/// run on any thread and the stream's libsoup sessions belong to the main loop.
@MainActor
private final class StreamSlot {
    private let make: @MainActor () -> StreamConnectionDriver
    private var made: StreamConnectionDriver?

    nonisolated init(make: @escaping @MainActor () -> StreamConnectionDriver) {
        self.make = make
    }

    var stream: StreamConnectionDriver {
        if let made { return made }
        let stream = make()
        made = stream
        return stream
    }

    func connect() async { await stream.connect() }
    /// A stream never made has nothing to close.
    func disconnect() async { await made?.disconnect() }
    var isConnected: Bool { get async { await stream.isConnected } }
}
