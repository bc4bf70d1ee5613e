import FoundationEssentials
import RelavoiCore
import RelavoiStream
import RelavoiStreamEngine

/// The Relavoi event stream, as `Relavoi.shared.events` on iOS: connect,
/// listen, disconnect.
///
/// Callable from any thread or actor. The stream itself runs on the GLib
/// main loop (the main actor): `connect()` and `disconnect()` hop there, and
/// every handler is called there, one event at a time, in arrival order.
public final class RelavoiEvents: Sendable {
    /// A handler of `addListener`; it runs on the main loop.
    public typealias Listener = @MainActor (RelavoiEvent) -> Void

    let listeners = ListenerRegistry()
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
        listeners.set(key, handler)
    }

    /// Removes the handler registered under `key`; it is not called again.
    public func removeListener(_ key: String) {
        listeners.remove(key)
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
