import RelavoiCore

/// The stream's connection life cycle as a pure state machine: inputs are
/// method calls with the current monotonic time; outputs are actions that
/// a driver carries out (token fetch, socket, timers, publishing state).
/// No sockets, no clocks, no timers: every path is testable by hand.
/// While a socket is open the driver keeps one one-shot timer set to
/// `nextWake`: the next text ping or deadline, nothing periodic.
///
/// One attempt = fetch (or reuse) a token, open the socket, wait for the
/// welcome frame. Socket callbacks carry the attempt number they belong to;
/// stale ones are ignored.
public struct StreamConnectionMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Send a text `ping` this often while the socket is open.
        public var keepAliveInterval: Double = StreamTimings.keepAliveInterval
        /// Replace a socket on which nothing at all arrived for this long.
        public var halfOpenTimeout: Double = StreamTimings.halfOpenTimeout
        /// Give up a handshake (TCP, TLS, upgrade) after this long.
        public var connectTimeout: Double = StreamTimings.connectTimeout
        /// A live connection resets the backoff once it has been live this long.
        public var stableConnectionInterval: Double = StreamTimings.stableConnectionInterval
        /// Retry interval after HTTP 401 or 403 from the token endpoint.
        public var unauthorizedRetryInterval: Double = StreamTimings.unauthorizedRetryInterval
        /// Least wait after HTTP 429 without Retry-After.
        public var rateLimitedRetryMinimum: Double = StreamTimings.rateLimitedRetryMinimum
        /// After `reconnectNow()` on an open socket: how long a probe ping may go unanswered.
        public var probeTimeout: Double = StreamTimings.probeTimeout

        public init() {}

        /// The text ping's period: at least 20 ms, so a zero interval cannot ping in a loop.
        var pingPeriod: Double { max(0.02, keepAliveInterval) }

        /// The production timings (`RelavoiConfig`'s defaults).
        public static let standard = Settings()
    }

    public enum Phase: Equatable, Sendable {
        case idle
        case waitingToRetry
        case fetchingToken
        case connecting
        case awaitingWelcome
        case live
    }

    public enum Action: Equatable, Sendable {
        /// Get a token; `fresh` means the cached one was refused.
        case fetchToken(fresh: Bool)
        /// Open the socket for this attempt with the current token.
        case openSocket(attempt: Int)
        /// Close (or abandon a pending handshake of) this attempt's socket.
        case closeSocket(attempt: Int, code: UInt16, reason: String)
        case sendPing
        /// Arm the one retry timer; it calls `retryTimerFired`.
        case scheduleRetry(after: Double)
        case cancelRetry
        /// Arm the one wake-up timer for this moment (replacing the one armed
        /// before); it calls `wakeTimerFired`.
        case wake(at: Double)
        /// No socket, nothing due: drop the wake-up timer.
        case cancelWake
        case publish(RelavoiConnectionState)
        /// Wake callers awaiting the outcome of the current attempt.
        case finishConnectWaiters
        case log(StreamLogLevel, String)
    }

    public private(set) var phase: Phase = .idle
    public private(set) var attempt = 0
    public private(set) var backoff: Backoff
    public let settings: Settings
    /// The next token fetch must not reuse the cached token (after 4001/4003).
    public private(set) var needsFreshToken = false

    private var liveSince: Double?
    private var connectStartedAt = 0.0
    private var lastActivity = 0.0
    private var lastPingSent = 0.0
    private var probeDeadline: Double?
    private var unauthorizedLogged = false

    public init(settings: Settings = Settings(), backoff: Backoff = Backoff()) {
        self.settings = settings
        self.backoff = backoff
    }

    public var state: RelavoiConnectionState {
        switch phase {
        case .idle: return .disconnected
        case .live: return .connected
        default: return .connecting
        }
    }

    private var hasSocket: Bool {
        phase == .connecting || phase == .awaitingWelcome || phase == .live
    }

    // MARK: Requests from the API

    /// Idempotent on a live or connecting stream; while waiting to retry it
    /// skips the wait ("call connect() again to force a reconnect").
    public mutating func connect(now: Double) -> [Action] {
        switch phase {
        case .idle:
            return [.publish(.connecting)] + beginAttempt()
        case .waitingToRetry:
            return [.cancelRetry] + beginAttempt()
        case .fetchingToken, .connecting, .awaitingWelcome:
            return []
        case .live:
            return [.finishConnectWaiters]
        }
    }

    /// Closes the socket, stops reconnecting and forgets the backoff.
    public mutating func disconnect() -> [Action] {
        let previous = phase
        var actions: [Action] = [.cancelRetry, .cancelWake]
        if hasSocket {
            actions.append(.closeSocket(attempt: attempt, code: 1000, reason: "client disconnect"))
        }
        phase = .idle
        liveSince = nil
        probeDeadline = nil
        backoff.reset()
        if previous != .idle {
            actions.append(.publish(.disconnected))
            actions.append(.log(.info, "disconnected"))
        }
        actions.append(.finishConnectWaiters)
        return actions
    }

    /// New credentials: the socket (opened with the old account's token) goes
    /// and an attempt with a fresh token starts at once, the backoff forgotten.
    /// Nothing on an idle stream: `connect` starts it.
    public mutating func accountChanged() -> [Action] {
        guard phase != .idle else { return [] }
        var actions: [Action] = [.cancelRetry, .cancelWake]
        if hasSocket {
            actions.append(.closeSocket(attempt: attempt, code: 1000, reason: "new credentials"))
        }
        if phase == .live { actions.append(.publish(.connecting)) }
        liveSince = nil
        probeDeadline = nil
        backoff.reset()
        needsFreshToken = true
        actions.append(.log(.info, "new credentials: connecting with them"))
        return actions + beginAttempt()
    }

    /// Resume / network-up: retry now if waiting; if a socket is open, probe
    /// it with a ping and replace it unless something arrives within
    /// `probeTimeout`. Does nothing after `disconnect()`.
    public mutating func reconnectNow(now: Double) -> [Action] {
        switch phase {
        case .idle, .fetchingToken, .connecting:
            return []
        case .waitingToRetry:
            backoff.reset()
            return [.cancelRetry, .log(.info, "reconnecting now")] + beginAttempt()
        case .awaitingWelcome, .live:
            let timeout = min(settings.probeTimeout, settings.halfOpenTimeout)
            probeDeadline = now + timeout
            lastPingSent = now
            return [.sendPing] + armWake()
        }
    }

    // MARK: Token

    public mutating func tokenReady(now: Double) -> [Action] {
        guard phase == .fetchingToken else { return [] }
        var actions: [Action] = []
        if unauthorizedLogged {
            unauthorizedLogged = false
            actions.append(.log(.info, "API key and secret accepted"))
        }
        needsFreshToken = false
        attempt += 1
        phase = .connecting
        connectStartedAt = now
        lastActivity = now
        lastPingSent = now
        probeDeadline = nil
        liveSince = nil
        actions.append(.openSocket(attempt: attempt))
        return actions + armWake()
    }

    public mutating func tokenFailed(_ failure: TokenFailure, now: Double) -> [Action] {
        guard phase == .fetchingToken else { return [] }
        phase = .waitingToRetry
        var actions: [Action] = []
        let delay: Double
        switch failure {
        case .unauthorized:
            delay = settings.unauthorizedRetryInterval
            if unauthorizedLogged {
                actions.append(
                    .log(
                        .debug,
                        "token request still refused (HTTP 401 or 403); retrying in \(DurationText.seconds(delay))"))
            } else {
                unauthorizedLogged = true
                actions.append(
                    .log(
                        .warning,
                        "bad API key or secret (HTTP 401 or 403 from the token endpoint); retrying every \(DurationText.seconds(delay))"
                    ))
            }
        case .rateLimited(let retryAfter):
            delay = max(backoff.nextDelay(), retryAfter ?? settings.rateLimitedRetryMinimum)
            actions.append(
                .log(streakLevel, "token endpoint rate limited (HTTP 429); retrying in \(DurationText.seconds(delay))"))
        case .transient(let message):
            delay = backoff.nextDelay()
            actions.append(
                .log(streakLevel, "token request failed (\(message)); retrying in \(DurationText.seconds(delay))"))
        }
        actions.append(.scheduleRetry(after: delay))
        actions.append(.finishConnectWaiters)
        return actions
    }

    // MARK: Socket

    public mutating func socketOpened(attempt: Int, now: Double) -> [Action] {
        guard attempt == self.attempt, phase == .connecting else { return [] }
        phase = .awaitingWelcome
        lastActivity = now
        // The first ping can be due before the handshake deadline the timer is set to.
        return [.log(.debug, "socket open; waiting for the welcome frame")] + armWake()
    }

    /// The handshake failed (DNS, TCP, TLS, HTTP refusal). `httpStatus` is
    /// the handshake's HTTP status when there was one.
    public mutating func socketFailed(
        attempt: Int, message: String, httpStatus: Int? = nil, now: Double
    ) -> [Action] {
        guard attempt == self.attempt, phase == .connecting else { return [] }
        if httpStatus == 401 || httpStatus == 403 { needsFreshToken = true }
        return retryLater(reason: "connection failed (\(message))", wasLive: false)
    }

    /// Any frame at all arrived (events, pong, welcome): the socket is not half-open.
    /// A probe it answers is over; the line saying so is what tests wait for.
    /// The wake-up timer stays as it is: a frame only moves deadlines later,
    /// and at the old one `wakeTimerFired` asks for the next.
    @discardableResult
    public mutating func noteActivity(now: Double) -> [Action] {
        lastActivity = now
        guard probeDeadline != nil else { return [] }
        probeDeadline = nil
        return [.log(.debug, "the probe was answered; keeping the connection")]
    }

    public mutating func welcomeReceived(attempt: Int, now: Double) -> [Action] {
        guard attempt == self.attempt else { return [] }
        let probeAnswered = noteActivity(now: now)
        guard phase == .awaitingWelcome else { return probeAnswered }
        phase = .live
        liveSince = now
        if settings.stableConnectionInterval <= 0 { backoff.reset() }
        return probeAnswered + [.publish(.connected), .finishConnectWaiters, .log(.info, "stream live")]
    }

    /// The socket closed (by the server, the network or libsoup). `code` is
    /// the WebSocket close code, 1006 when there was none.
    public mutating func socketClosed(attempt: Int, code: UInt16, now: Double) -> [Action] {
        guard attempt == self.attempt, hasSocket else { return [] }
        let wasLive = phase == .live
        if wasLive, let liveSince, now - liveSince >= settings.stableConnectionInterval {
            backoff.reset()
        }
        let reason: String
        switch code {
        case 4001, 4003:
            needsFreshToken = true
            reason = "server refused the token (close \(code)); fetching a new one"
        case 1009:
            reason = "an incoming frame was larger than allowed (close 1009)"
        default:
            reason = "connection closed (code \(code))"
        }
        return retryLater(reason: reason, wasLive: wasLive)
    }

    // MARK: Timers

    public mutating func retryTimerFired(now: Double) -> [Action] {
        guard phase == .waitingToRetry else { return [] }
        return beginAttempt()
    }

    /// When the driver must next call `wakeTimerFired`, nil without a socket:
    /// the handshake deadline while connecting; on an open socket the next text
    /// ping, the half-open deadline (from the last frame) or a probe's deadline,
    /// whichever comes first.
    public var nextWake: Double? {
        switch phase {
        case .connecting:
            return handshakeDeadline
        case .awaitingWelcome, .live:
            let due = min(nextPingAt, silenceDeadline)
            return probeDeadline.map { min($0, due) } ?? due
        case .idle, .waitingToRetry, .fetchingToken:
            return nil
        }
    }

    private var handshakeDeadline: Double { connectStartedAt + settings.connectTimeout }
    private var nextPingAt: Double { lastPingSent + settings.pingPeriod }
    /// Half-open: nothing at all arrived since the last frame.
    private var silenceDeadline: Double { lastActivity + settings.halfOpenTimeout }

    /// The wake-up timer went off: acts on what is due (the ping, a deadline;
    /// nothing if a frame came since the timer was set), then asks for the
    /// next wake-up.
    public mutating func wakeTimerFired(now: Double) -> [Action] {
        let actions = actOnDeadlines(now: now)
        return hasSocket ? actions + armWake() : actions
    }

    private mutating func actOnDeadlines(now: Double) -> [Action] {
        switch phase {
        case .connecting:
            guard now >= handshakeDeadline else { return [] }
            return [.closeSocket(attempt: attempt, code: 1000, reason: "handshake timeout")]
                + retryLater(
                    reason: "handshake timed out after \(DurationText.seconds(settings.connectTimeout))",
                    wasLive: false)
        case .awaitingWelcome, .live:
            if now >= silenceDeadline || (probeDeadline.map { now >= $0 } ?? false) {
                let silent = now - lastActivity
                let wasLive = phase == .live
                let what = wasLive ? "" : " (no welcome frame)"
                return [.closeSocket(attempt: attempt, code: 1000, reason: "keep-alive timeout")]
                    + retryLater(
                        reason: "nothing received for \(DurationText.seconds(silent))\(what); replacing the connection",
                        wasLive: wasLive)
            }
            if now >= nextPingAt {
                lastPingSent = now
                return [.sendPing]
            }
            return []
        case .idle, .waitingToRetry, .fetchingToken:
            return []
        }
    }

    // MARK: Internals

    private func armWake() -> [Action] {
        nextWake.map { [.wake(at: $0)] } ?? [.cancelWake]
    }

    private mutating func beginAttempt() -> [Action] {
        phase = .fetchingToken
        return [.fetchToken(fresh: needsFreshToken)]
    }

    private mutating func retryLater(reason: String, wasLive: Bool) -> [Action] {
        phase = .waitingToRetry
        liveSince = nil
        probeDeadline = nil
        let delay = backoff.nextDelay()
        var actions: [Action] = [.cancelWake]
        if wasLive { actions.append(.publish(.connecting)) }
        actions.append(.log(streakLevel, "\(reason); reconnecting in \(DurationText.seconds(delay))"))
        actions.append(.scheduleRetry(after: delay))
        actions.append(.finishConnectWaiters)
        return actions
    }

    /// The first failure of a streak is a warning; repeats are quieter
    /// (info is hidden unless verbose), so a long outage is not a log flood.
    private var streakLevel: StreamLogLevel { backoff.failures <= 1 ? .warning : .info }
}
