import CGLib
import CSoup
import Foundation
import RelavoiCore
import RelavoiGLib

/// A local Relavoi-compatible server on libsoup's `SoupServer`: the token
/// exchange, the REST calls and the WebSocket event stream of the wire
/// contract, on 127.0.0.1 only, driven by the thread-default GLib main
/// context of the main thread (the same loop as the agent when embedded).
@MainActor
public final class SandboxServer {
    var state: SandboxState
    var soupServer: UnsafeMutablePointer<SoupServer>?
    public private(set) var port: UInt16 = 0

    var clients: [Int: WebSocketClient] = [:]
    var nextClientID = 1
    var playbacks: [ScenarioPlayback] = []
    var pingSweep: GLibTimer?

    /// WebSocket upgrades completed, including those then closed with 4001/4003.
    public internal(set) var handshakeCount = 0
    /// Text frames sent to clients (each client counts).
    public internal(set) var framesSent = 0
    /// The last 100 text messages clients sent, oldest first.
    public internal(set) var receivedMessages: [String] = []

    /// Called with the client's serial number (1, 2, … since `init`) right after its welcome frame.
    public var onClientConnected: ((Int) -> Void)?
    /// Called with the serial number when a welcomed client's connection is gone.
    public var onClientDisconnected: ((Int) -> Void)?
    /// A scenario's `quit` step. The executable quits its main loop; nil = ignore the step.
    public var onQuit: (() -> Void)?

    public init(options: Options = .init()) {
        state = SandboxState(options: options)
    }

    isolated deinit {
        stop()
    }

    public var options: Options { state.options }

    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    public var webSocketURL: String { "ws://127.0.0.1:\(port)/ws" }
    public var isListening: Bool { soupServer != nil }

    /// Clients that got the welcome frame and have not been closed or dropped.
    public var liveClientCount: Int { clients.values.filter { $0.phase == .live }.count }
    public var tokenRequestCount: Int { state.tokenRequestCount }
    /// REST calls (everything but the token exchange) answered so far.
    public var restRequestCount: Int { state.restRequestCount }

    /// Answer every REST call (not the token exchange) with this HTTP status; nil = normal.
    public var failREST: Int? {
        get { state.options.failREST }
        set { state.options.failREST = newValue }
    }
    /// Answer every token request with this HTTP status; nil = normal.
    public var failTokenRequests: Int? {
        get { state.options.failTokenRequests }
        set { state.options.failTokenRequests = newValue }
    }
    /// Delay every HTTP answer by this many seconds.
    public var responseDelay: TimeInterval {
        get { state.options.responseDelay }
        set { state.options.responseDelay = max(0, newValue) }
    }
    /// Delay REST answers (not the token exchange) by this many seconds more.
    public var restLatency: TimeInterval {
        get { state.options.restLatency }
        set { state.options.restLatency = max(0, newValue) }
    }

    /// Whether the server answers the text `ping` and sends WebSocket pings.
    /// `false` simulates a silent, half-open server (libsoup still answers
    /// protocol-level pings from the client by itself; that cannot be turned off).
    public var answersPings = true {
        didSet {
            guard answersPings != oldValue else { return }
            let seconds = answersPings ? pingSeconds : 0
            for client in clients.values where client.phase == .live {
                client.lastPongAt = Date()
                client.setPingInterval(seconds)
            }
        }
    }

    var pingSeconds: guint {
        let interval = state.options.pingInterval
        return interval > 0 ? guint(min(interval.rounded(.up), 86_400)) : 0
    }

    /// Binds 127.0.0.1:`port` (0 = an ephemeral port) and returns the port.
    @discardableResult
    public func start(port requested: UInt16 = 0) throws -> UInt16 {
        guard soupServer == nil else { throw SandboxError.alreadyStarted }
        MainLoop.installDispatchBridge()
        let server = try SoupServerSetup.listen(port: requested, for: self)
        soupServer = server.server
        port = server.port
        startPingSweep()
        Log.info("sandbox: listening on \(baseURL)")
        return port
    }

    /// Stops listening, closes every client (1001) and cancels scenarios. Idempotent.
    public func stop() {
        for playback in playbacks { playback.cancel() }
        playbacks = []
        pingSweep?.cancel()
        pingSweep = nil
        for client in clients.values {
            client.close(code: 1001, reason: "sandbox stopping")
            client.releaseSoon(after: 2)
        }
        clients = [:]
        if let server = soupServer {
            soupServer = nil
            soup_server_disconnect(server)
            g_object_unref(server)
        }
    }

    /// A close code `close(code:reason:)` and scenarios accept.
    public nonisolated static func isValidCloseCode(_ code: Int) -> Bool {
        (1000...4999).contains(code) && ![1004, 1005, 1006, 1010, 1015].contains(code) && (code >= 3000 || code <= 1014)
    }
}
