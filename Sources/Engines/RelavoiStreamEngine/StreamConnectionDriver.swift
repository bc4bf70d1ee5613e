import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiSoup
import RelavoiStream

/// The event stream itself, on the main actor (the GLib main loop): connect,
/// reconnect, decode, deliver. `RelavoiEvents` is its public face, callable
/// from any isolation.
///
/// The connection logic is `StreamConnectionMachine` (pure, in RelavoiCore);
/// this class carries out its actions with libsoup and GLib timers, decodes
/// frames and calls the listeners.
@MainActor
package final class StreamConnectionDriver {
    package typealias ConnectionStateListener = @MainActor (RelavoiConnectionState) -> Void

    package private(set) var config: RelavoiConfig
    package private(set) var tenantId: String
    private var webSocketURL: URL
    /// Set when the configured URLs break the transport policy: nothing connects.
    private var configurationError: RelavoiError?

    private var machine: StreamConnectionMachine
    private var tokens: TokenProvider
    private var rest: RelavoiRESTClient
    private var webSocketSession: SoupClientSession
    /// Counts `useAccount` calls: a token fetched for an earlier account is dropped.
    private var accountGeneration = 0
    private let decoder = FrameDecoder()
    private var deduplicator: EventDeduplicator

    private var socket: WebSocketConnection?
    private var socketAttempt = 0
    private var scrubber: SecretScrubber
    /// The token the current socket was opened with; never logged.
    private var socketToken: String? {
        get { scrubber.socketToken }
        set { scrubber.socketToken = newValue }
    }
    private var retryTimer: GLibTimer?
    /// The machine's `nextWake`: the next text ping or deadline of the open socket.
    private lazy var wakeTimer = DeadlineTimer(slack: 0.01) { [weak self] in self?.wakeTimerFired() }
    private var connectWaiters: [CheckedContinuation<Void, Never>] = []
    private let listeners: ListenerRegistry
    private var stateListeners = ListenerList<ConnectionStateListener>()
    private var refusalListeners = ListenerList<@MainActor () -> Void>()
    private var malformedLog = LogThrottle(limit: 5, window: 60)
    private var warnedTenantMismatch = false

    /// Frames decoded and events delivered since creation (the agent's diagnostics).
    package private(set) var framesReceived = 0
    package private(set) var eventsDelivered = 0
    package private(set) var duplicatesDropped = 0
    package private(set) var malformedFrames = 0

    package init(
        apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig, listeners: ListenerRegistry,
        random: Backoff.RandomSource? = nil
    ) {
        self.listeners = listeners
        self.config = config
        self.tenantId = tenantId
        let backoff = Backoff(
            base: config.backoffBase, cap: max(config.backoffCap, config.backoffBase),
            jitter: config.backoffJitter,
            random: random ?? { Double.random(in: 0..<1) })
        machine = StreamConnectionMachine(settings: config.machineSettings, backoff: backoff)
        deduplicator = EventDeduplicator(capacity: max(1, config.dedupeCapacity))
        let logSink = LogSink()
        let account = Account(apiKey: apiKey, apiSecret: apiSecret, config: config, log: logSink)
        (webSocketURL, configurationError, scrubber) = (
            account.webSocketURL, account.configurationError, account.scrubber
        )
        (tokens, rest, webSocketSession) = (account.tokens, account.rest, account.webSocketSession)
        logSink.write = { [weak self] level, text in self?.log(level, text) }
        if let configurationError { log(.warning, "\(configurationError)") }
    }

    /// What depends on the account: its URLs, token provider, REST client and sessions.
    @MainActor
    private struct Account {
        let webSocketURL: URL
        let configurationError: RelavoiError?
        let scrubber: SecretScrubber
        let tokens: TokenProvider
        let rest: RelavoiRESTClient
        let webSocketSession: SoupClientSession

        init(apiKey: String, apiSecret: String, config: RelavoiConfig, log: LogSink) {
            webSocketURL = config.resolvedWebSocketURL
            do {
                try config.validate()
                configurationError = nil
            } catch {
                configurationError = error
            }
            scrubber = SecretScrubber(apiSecret: apiSecret)
            let restSession = SoupClientSession(
                noProxy: StreamEndpoint.isLoopback(config.baseURL),
                timeout: UInt32(max(1, config.requestTimeout)))
            let http = HTTPClient(session: restSession)
            webSocketSession = SoupClientSession(noProxy: StreamEndpoint.isLoopback(webSocketURL), timeout: 0)
            tokens = TokenProvider(
                http: http, config: config, apiKey: apiKey, apiSecret: apiSecret, log: { log.write?($0, $1) })
            rest = RelavoiRESTClient(
                baseURL: config.baseURL, http: http, tokens: tokens, scrubber: SecretScrubber(apiSecret: apiSecret))
        }
    }

    /// The token provider's log line goes to `log`, set once `self` exists.
    private final class LogSink {
        var write: ((StreamLogLevel, String) -> Void)?
    }

    /// Takes new credentials (and URLs) in place, as after `relavoi-agent login`:
    /// the socket opened with the old token goes and a new attempt starts at
    /// once, without `.disconnected` (listeners and the stream's life stay).
    /// On a stream never connected nothing starts: `connect()` does that.
    /// The timings of `config` are not taken: those of the first config stay.
    package func useAccount(apiKey: String, apiSecret: String, tenantId: String, config: RelavoiConfig) {
        accountGeneration += 1
        let logSink = LogSink()
        let account = Account(apiKey: apiKey, apiSecret: apiSecret, config: config, log: logSink)
        logSink.write = { [weak self] level, text in self?.log(level, text) }
        // The old provider stops its refresh timer; the new one refreshes as it did.
        let refresh = tokens.autoRefresh
        tokens.autoRefresh = false
        self.config = config
        self.tenantId = tenantId
        warnedTenantMismatch = false
        (webSocketURL, configurationError, scrubber) = (
            account.webSocketURL, account.configurationError, account.scrubber
        )
        (tokens, rest, webSocketSession) = (account.tokens, account.rest, account.webSocketSession)
        tokens.autoRefresh = refresh
        if let configurationError {
            log(.warning, "new credentials not used: \(configurationError)")
            perform(machine.disconnect())
            return
        }
        perform(machine.accountChanged())
    }

    isolated deinit {
        retryTimer?.cancel()
        wakeTimer.cancel()
        socket?.close(code: 1001, reason: "client gone")
    }

    // MARK: The stream (RelavoiEvents forwards these)

    /// Connects and keeps the stream connected (reconnecting with backoff)
    /// until `disconnect()`. Returns once the stream is live or the first
    /// attempt failed (retries continue in the background). Idempotent: a
    /// no-op on a live or connecting stream; while waiting to retry it
    /// retries at once.
    package func connect() async {
        if let configurationError {
            log(.warning, "not connecting: \(configurationError)")
            return
        }
        if machine.phase == .live { return }
        tokens.autoRefresh = true
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            connectWaiters.append(continuation)
            perform(machine.connect(now: MonotonicClock.now()))
        }
    }

    /// Closes the stream and stops reconnecting (for logout). Returns once
    /// the close handshake ended, or after at most 2 s.
    package func disconnect() async {
        tokens.autoRefresh = false
        let closing = socket
        perform(machine.disconnect())
        guard let closing, closing.state == .closing else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            let timer = GLibTimer.once(after: 2) { once.resume() }
            closing.onClosed = { _, _ in
                timer.cancel()
                once.resume()
            }
        }
    }

    /// True only after the server's `connected` frame on the current socket.
    package var isConnected: Bool {
        get async { machine.phase == .live }
    }

    // MARK: For the agent

    /// The stream's state now (synchronous, on the main actor).
    package var connectionState: RelavoiConnectionState { machine.state }

    /// Called on every change of `connectionState`: `.connected` after each
    /// welcome (reconcile over REST then: there is no replay), `.connecting`
    /// when a live stream dropped, `.disconnected` after `disconnect()`.
    package func addConnectionStateListener(_ key: String, handler: @escaping ConnectionStateListener) {
        stateListeners.set(key, handler)
    }

    package func removeConnectionStateListener(_ key: String) {
        stateListeners.remove(key)
    }

    /// Called each time the token endpoint refuses the key or secret (HTTP 401
    /// or 403) for the stream: the agent tells the person, who alone can fix it.
    package func addTokenRefusedListener(_ key: String, handler: @escaping @MainActor () -> Void) {
        refusalListeners.set(key, handler)
    }

    /// For resume from sleep or network-up: skips a pending backoff wait;
    /// on an open stream sends a ping and replaces the socket unless
    /// something arrives within `probeTimeout`. No-op after `disconnect()`.
    package func reconnectNow() {
        guard configurationError == nil else { return }
        perform(machine.reconnectNow(now: MonotonicClock.now()))
    }

    /// A valid access token (fetched or refreshed as needed).
    package func accessToken() async throws(RelavoiError) -> String {
        if let configurationError { throw configurationError }
        return try await tokens.token()
    }

    /// An authenticated REST GET; see `RelavoiRESTClient.get`.
    package func get(path: String, query: [String: String] = [:]) async throws -> (status: Int, body: JSONValue) {
        if let configurationError { throw configurationError }
        return try await rest.get(path: path, query: query)
    }

    /// How many token requests were sent (the agent's diagnostics).
    package var tokenRequestCount: Int { tokens.requestCount }

    // MARK: Actions

    private func perform(_ actions: [StreamConnectionMachine.Action]) {
        for action in actions {
            switch action {
            case .fetchToken(let fresh):
                Task { @MainActor [weak self] in await self?.fetchToken(fresh: fresh) }
            case .openSocket(let attempt):
                openSocket(attempt: attempt)
            case .closeSocket(let attempt, let code, let reason):
                guard attempt == socketAttempt, let socket else { break }
                self.socket = nil
                detach(socket)
                socket.close(code: code, reason: reason)
            case .sendPing:
                socket?.send(text: "ping")
            case .scheduleRetry(let delay):
                retryTimer?.cancel()
                retryTimer = GLibTimer.once(after: delay) { [weak self] in
                    MainActor.assumeIsolated {
                        guard let self else { return }
                        self.retryTimer = nil
                        // Tells a waited-out retry from a connect that skipped the wait (resume, network back).
                        self.log(.debug, "the retry wait is over")
                        self.perform(self.machine.retryTimerFired(now: MonotonicClock.now()))
                    }
                }
            case .cancelRetry:
                retryTimer?.cancel()
                retryTimer = nil
            case .wake(let deadline):
                wakeTimer.schedule(at: deadline, now: MonotonicClock.now())
            case .cancelWake:
                wakeTimer.cancel()
            case .publish(let state):
                publish(state)
            case .finishConnectWaiters:
                let waiters = connectWaiters
                connectWaiters.removeAll()
                for waiter in waiters { waiter.resume() }
            case .log(let level, let text):
                log(level, text)
            }
        }
    }

    private func wakeTimerFired() {
        perform(machine.wakeTimerFired(now: MonotonicClock.now()))
    }

    private func fetchToken(fresh: Bool) async {
        let generation = accountGeneration
        do throws(RelavoiError) {
            let token = try await tokens.token(fresh: fresh, honourCooldown: false)
            guard machine.phase == .fetchingToken, generation == accountGeneration else { return }
            socketToken = token
            perform(machine.tokenReady(now: MonotonicClock.now()))
        } catch {
            let failure: TokenFailure
            switch error {
            case .unauthorized:
                failure = .unauthorized
                let (version, entries) = refusalListeners.snapshot()
                for entry in entries where refusalListeners.isStillRegistered(serial: entry.serial, since: version) {
                    entry.handler()
                }
            case .rateLimited(let after): failure = .rateLimited(retryAfter: after)
            default: failure = .transient(error.description)
            }
            guard generation == accountGeneration else { return }
            perform(machine.tokenFailed(failure, now: MonotonicClock.now()))
        }
    }

    private func openSocket(attempt: Int) {
        guard let token = socketToken else {
            perform(
                machine.socketFailed(attempt: attempt, message: "no token", now: MonotonicClock.now()))
            return
        }
        var options = WebSocketConnection.Options()
        options.maxIncomingPayloadSize = config.maxFrameSize
        let socket = WebSocketConnection(
            session: webSocketSession, url: StreamEndpoint.withToken(webSocketURL, token: token),
            options: options)
        socket.onOpen = { [weak self] in
            guard let self else { return }
            self.perform(self.machine.socketOpened(attempt: attempt, now: MonotonicClock.now()))
        }
        socket.onConnectFailed = { [weak self] failure in
            guard let self else { return }
            if failure.error.isTLS { self.log(.warning, "TLS failure: \(failure.error.message)") }
            if failure.httpStatus == 401 || failure.httpStatus == 403, let token = self.socketToken {
                self.tokens.invalidate(token)
            }
            self.perform(
                self.machine.socketFailed(
                    attempt: attempt, message: failure.description, httpStatus: failure.httpStatus,
                    now: MonotonicClock.now()))
        }
        socket.onText = { [weak self] bytes in self?.received(bytes, attempt: attempt) }
        socket.onPong = { [weak self] in
            guard let self else { return }
            self.perform(self.machine.noteActivity(now: MonotonicClock.now()))
        }
        socket.onError = { [weak self] error in
            self?.log(error.code == 1009 ? .warning : .debug, "socket error: \(error.message)")
        }
        socket.onClosed = { [weak self] code, _ in
            guard let self else { return }
            if self.socketAttempt == attempt { self.socket = nil }
            if code == 4001 || code == 4003, let token = self.socketToken {
                self.tokens.invalidate(token)
            }
            self.perform(
                self.machine.socketClosed(attempt: attempt, code: code, now: MonotonicClock.now()))
        }
        self.socket = socket
        socketAttempt = attempt
        log(.debug, "connecting to \(StreamEndpoint.redacted(webSocketURL))")
        socket.open()
    }

    /// Stops a socket's callbacks reaching us (it is being replaced or closed).
    private func detach(_ socket: WebSocketConnection) {
        socket.onOpen = nil
        socket.onConnectFailed = nil
        socket.onText = nil
        socket.onPong = nil
        socket.onError = nil
        socket.onClosed = nil
    }

    // MARK: Frames

    private func received(_ bytes: UnsafeRawBufferPointer, attempt: Int) {
        guard attempt == socketAttempt, socket != nil else { return }
        let now = MonotonicClock.now()
        perform(machine.noteActivity(now: now))
        framesReceived &+= 1
        let frame: StreamFrame
        do {
            frame = try decoder.decode(utf8: bytes)
        } catch {
            malformedFrames &+= 1
            let (shouldLog, suppressed) = malformedLog.admit(now: now)
            if shouldLog {
                let note = suppressed > 0 ? " (\(suppressed) similar lines suppressed)" : ""
                log(.warning, "skipped a malformed frame of \(bytes.count) bytes: \(error)\(note)")
            }
            return
        }
        switch frame {
        case .connected(let tenant, _):
            if let tenant, tenant != tenantId, !warnedTenantMismatch {
                warnedTenantMismatch = true
                log(.warning, "the stream is for tenant \(tenant), not the configured \(tenantId)")
            }
            perform(machine.welcomeReceived(attempt: attempt, now: now))
        case .pong:
            break
        case .event(let event, let id):
            guard deduplicator.shouldDeliver(id: id) else {
                duplicatesDropped &+= 1
                return
            }
            deliver(event)
        }
    }

    private func deliver(_ event: RelavoiEvent) {
        eventsDelivered &+= 1
        listeners.deliver(event)
    }

    private func publish(_ state: RelavoiConnectionState) {
        let (version, entries) = stateListeners.snapshot()
        for entry in entries
        where stateListeners.isStillRegistered(serial: entry.serial, since: version) {
            entry.handler(state)
        }
    }

    // MARK: Logging

    /// Every line goes through here: the secret and the socket's token are
    /// scrubbed even if some library message quoted them.
    private func log(_ level: StreamLogLevel, _ text: String) {
        let line = "Relavoi stream: " + scrubber.scrub(text)
        switch level {
        case .debug: Log.debug(line)
        case .info: Log.info(line)
        case .warning: Log.warning(line)
        }
    }
}

/// Resumes a continuation once, whichever of two paths comes first.
@MainActor
private final class ResumeOnce {
    private var continuation: CheckedContinuation<Void, Never>?
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
    func resume() {
        continuation?.resume()
        continuation = nil
    }
}
