import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct StreamConnectionMachineTests {
    typealias Action = StreamConnectionMachine.Action

    func machine(_ configure: (inout StreamConnectionMachine.Settings) -> Void = { _ in }) -> StreamConnectionMachine {
        var settings = StreamConnectionMachine.Settings()
        configure(&settings)
        return StreamConnectionMachine(
            settings: settings, backoff: Backoff(base: 0.5, cap: 30, jitter: 0.2, random: { 0 }))
    }

    /// Drives a machine from idle to live on attempt `attempt`; returns the time.
    @discardableResult
    func goLive(_ m: inout StreamConnectionMachine, at now: Double = 0) -> Double {
        _ = m.connect(now: now)
        finishAttempt(&m, now: now)
        return now
    }

    /// The attempt under way gets its token, its socket and the welcome at `now`.
    func finishAttempt(_ m: inout StreamConnectionMachine, now: Double) {
        _ = m.tokenReady(now: now)
        _ = m.socketOpened(attempt: m.attempt, now: now)
        _ = m.welcomeReceived(attempt: m.attempt, now: now)
    }

    /// `count` attempts in a row fail (token, refused socket, retry), all at time 0.
    func failAttempts(_ m: inout StreamConnectionMachine, _ count: Int) {
        for _ in 0..<count {
            _ = m.tokenReady(now: 0)
            _ = m.socketFailed(attempt: m.attempt, message: "x", now: 0)
            _ = m.retryTimerFired(now: 0)
        }
    }

    func retryDelay(_ actions: [Action]) -> Double? {
        for case .scheduleRetry(let delay) in actions { return delay }
        return nil
    }

    func wake(_ actions: [Action]) -> Double? {
        for case .wake(let at) in actions { return at }
        return nil
    }

    func closes(_ actions: [Action]) -> Bool {
        actions.contains { if case .closeSocket = $0 { true } else { false } }
    }

    /// Runs the machine as the driver does: its one timer fires at the last
    /// `.wake(at:)` it asked for; `frame(now)` says whether a frame (a pong)
    /// arrives after a ping sent at `now` and when, noted without re-arming.
    /// Returns the wake-up times, and when the socket was replaced, if it was.
    func runTimer(
        _ m: inout StreamConnectionMachine, from armed: Double, until end: Double,
        pongAfter: (Double) -> Double?
    ) -> (wakes: [Double], replacedAt: Double?) {
        var wakes: [Double] = []
        var next: Double? = armed
        while let now = next, now <= end {
            wakes.append(now)
            let actions = m.wakeTimerFired(now: now)
            if closes(actions) { return (wakes, now) }
            if actions.contains(.sendPing), let delay = pongAfter(now) { m.noteActivity(now: now + delay) }
            next = wake(actions)
            if let next, next <= now {
                Issue.record("the wake-up at \(now) asked for \(next), not a later one")
                break
            }
        }
        return (wakes, nil)
    }

    func logs(_ actions: [Action]) -> [(StreamLogLevel, String)] {
        actions.compactMap { if case .log(let level, let text) = $0 { return (level, text) } else { return nil } }
    }

    @Test func happyPathWelcomeGatesConnected() {
        var m = machine()
        #expect(m.state == .disconnected)
        #expect(m.connect(now: 0) == [.publish(.connecting), .fetchToken(fresh: false)])
        #expect(m.state == .connecting)
        #expect(m.tokenReady(now: 0.1) == [.openSocket(attempt: 1), .wake(at: 20.1)], "the handshake deadline")
        #expect(wake(m.socketOpened(attempt: 1, now: 0.2)) == 20.1, "the first ping")
        #expect(m.phase == .awaitingWelcome)
        #expect(m.state == .connecting, "an open socket is not live before the welcome")
        let actions = m.welcomeReceived(attempt: 1, now: 0.3)
        #expect(actions.prefix(2) == [.publish(.connected), .finishConnectWaiters])
        #expect(m.state == .connected)
    }

    @Test func connectIsIdempotentWhileConnectingOrLive() {
        var m = machine()
        _ = m.connect(now: 0)
        #expect(m.connect(now: 0) == [])
        _ = m.tokenReady(now: 0)
        #expect(m.connect(now: 0) == [])
        _ = m.socketOpened(attempt: 1, now: 0)
        #expect(m.connect(now: 0) == [])
        _ = m.welcomeReceived(attempt: 1, now: 0)
        #expect(m.connect(now: 0) == [.finishConnectWaiters])
        #expect(m.attempt == 1)
    }

    @Test func dropOfALiveStreamRetriesAfterTheBaseDelayAndReportsConnecting() {
        var m = machine()
        goLive(&m)
        let actions = m.socketClosed(attempt: 1, code: 1006, now: 100)
        #expect(actions.contains(.publish(.connecting)))
        #expect(actions.contains(.cancelWake))
        #expect(m.nextWake == nil)
        #expect(retryDelay(actions) == 0.5)
        #expect(m.retryTimerFired(now: 100.5) == [.fetchToken(fresh: false)])
    }

    @Test func failuresDoubleUpToTheCap() {
        var m = machine()
        _ = m.connect(now: 0)
        var delays: [Double] = []
        for _ in 0..<9 {
            _ = m.tokenReady(now: 0)
            delays.append(retryDelay(m.socketFailed(attempt: m.attempt, message: "refused", now: 0))!)
            _ = m.retryTimerFired(now: 0)
        }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func aStableLiveConnectionResetsTheBackoffButAFlappingOneDoesNot() {
        var m = machine { $0.stableConnectionInterval = 5 }
        _ = m.connect(now: 0)
        failAttempts(&m, 4)
        // Live for 1 s only: the backoff keeps growing.
        finishAttempt(&m, now: 10)
        #expect(retryDelay(m.socketClosed(attempt: m.attempt, code: 1006, now: 11)) == 8)
        // Live for 6 s: back to the base delay.
        _ = m.retryTimerFired(now: 20)
        finishAttempt(&m, now: 20)
        #expect(retryDelay(m.socketClosed(attempt: m.attempt, code: 1006, now: 26)) == 0.5)
    }

    @Test func zeroStableIntervalResetsOnTheWelcome() {
        var m = machine { $0.stableConnectionInterval = 0 }
        _ = m.connect(now: 0)
        failAttempts(&m, 3)
        finishAttempt(&m, now: 0)
        #expect(retryDelay(m.socketClosed(attempt: m.attempt, code: 1006, now: 0.1)) == 0.5)
    }

    @Test(arguments: [UInt16(4001), 4003])
    func tokenRefusalFetchesAFreshTokenBeforeTheNextAttempt(code: UInt16) {
        var m = machine()
        _ = m.connect(now: 0)
        _ = m.tokenReady(now: 0)
        _ = m.socketOpened(attempt: 1, now: 0)
        let actions = m.socketClosed(attempt: 1, code: code, now: 0.1)
        #expect(logs(actions).contains { $0.1.contains("refused the token") })
        #expect(m.retryTimerFired(now: 1) == [.fetchToken(fresh: true)])
        _ = m.tokenReady(now: 1)
        #expect(!m.needsFreshToken)
    }

    @Test func handshakeRefusedWithHTTP401AlsoWantsAFreshToken() {
        var m = machine()
        _ = m.connect(now: 0)
        _ = m.tokenReady(now: 0)
        _ = m.socketFailed(attempt: 1, message: "Unauthorized", httpStatus: 401, now: 0)
        #expect(m.retryTimerFired(now: 1) == [.fetchToken(fresh: true)])
    }

    @Test func badCredentialsLogOneClearLineAndRetrySlowly() {
        var m = machine()
        _ = m.connect(now: 0)
        let first = m.tokenFailed(.unauthorized, now: 0)
        #expect(retryDelay(first) == 60)
        #expect(logs(first).filter { $0.0 == .warning }.count == 1)
        #expect(logs(first).first?.1.contains("bad API key or secret") == true)
        #expect(first.contains(.finishConnectWaiters))
        var now = 0.0
        for _ in 0..<20 {
            now += 60
            #expect(m.retryTimerFired(now: now) == [.fetchToken(fresh: false)])
            let again = m.tokenFailed(.unauthorized, now: now)
            #expect(retryDelay(again)! >= 60, "never a tight loop")
            #expect(logs(again).allSatisfy { $0.0 == .debug }, "logged once, not per retry")
        }
        _ = m.retryTimerFired(now: now + 60)
        #expect(logs(m.tokenReady(now: now + 60)).contains { $0.1.contains("accepted") })
    }

    @Test func rateLimitedTokenRequestsBackOff() {
        var m = machine { $0.rateLimitedRetryMinimum = 10 }
        _ = m.connect(now: 0)
        #expect(retryDelay(m.tokenFailed(.rateLimited(retryAfter: 42), now: 0)) == 42)
        _ = m.retryTimerFired(now: 42)
        #expect(retryDelay(m.tokenFailed(.rateLimited(retryAfter: nil), now: 42)) == 10)
        _ = m.retryTimerFired(now: 52)
        #expect(retryDelay(m.tokenFailed(.transient("HTTP 503"), now: 52)) == 2)
    }

    @Test func keepAlivePingsAndHalfOpenReplacement() {
        var m = machine {
            $0.keepAliveInterval = 20
            $0.halfOpenTimeout = 40
        }
        goLive(&m)
        #expect(m.nextWake == 20, "the first ping; nothing before it")
        #expect(m.wakeTimerFired(now: 10) == [.wake(at: 20)], "early: nothing due, the same deadline")
        #expect(m.wakeTimerFired(now: 20) == [.sendPing, .wake(at: 40)])
        m.noteActivity(now: 35)  // pong
        #expect(m.nextWake == 40, "a frame moves no deadline earlier")
        #expect(m.wakeTimerFired(now: 40) == [.sendPing, .wake(at: 60)])
        #expect(m.wakeTimerFired(now: 60) == [.sendPing, .wake(at: 75)], "unanswered: the half-open deadline is next")
        #expect(m.wakeTimerFired(now: 74.9) == [.wake(at: 75)])
        let replaced = m.wakeTimerFired(now: 75)
        #expect(replaced.first == .closeSocket(attempt: 1, code: 1000, reason: "keep-alive timeout"))
        #expect(replaced.contains(.publish(.connecting)))
        #expect(retryDelay(replaced) == 0.5)
        #expect(replaced.contains(.cancelWake))
        #expect(m.phase == .waitingToRetry)
        #expect(m.socketClosed(attempt: 1, code: 1006, now: 81) == [], "the replaced socket's close is stale")
    }

    @Test func aHealthyIdleStreamWakesOnlyToPing() {
        var m = machine()
        goLive(&m)
        // Each ping answered 50 ms later; frames do not re-arm the timer.
        let run = runTimer(&m, from: m.nextWake!, until: 600, pongAfter: { _ in 0.05 })
        #expect(run.replacedAt == nil)
        #expect(run.wakes == Array(stride(from: 20.0, through: 600, by: 20)), "one wake-up per text ping, no other")
    }

    @Test func aSilentSocketIsReplacedAtTheHalfOpenDeadlineWithTheDefaults() {
        for silenceStart in stride(from: 0.0, to: 60, by: 0.7) {
            var m = machine()
            goLive(&m)
            let armed = m.nextWake!
            // Pongs come until `silenceStart`, then nothing at all.
            let run = runTimer(&m, from: armed, until: 300) { $0 < silenceStart ? 0.05 : nil }
            let lastFrame = run.wakes.last { $0 < silenceStart }.map { $0 + 0.05 } ?? 0
            #expect(run.replacedAt == lastFrame + m.settings.halfOpenTimeout, "at \(silenceStart)")
        }
    }

    @Test func theOpenedSocketsFirstPingCanComeBeforeTheHandshakeDeadline() {
        var m = machine {
            $0.keepAliveInterval = 0.2
            $0.connectTimeout = 5
        }
        _ = m.connect(now: 0)
        #expect(wake(m.tokenReady(now: 0)) == 5)
        #expect(wake(m.socketOpened(attempt: 1, now: 0.1)) == 0.2)
    }

    @Test func aZeroKeepAliveIntervalDoesNotPingInALoop() {
        var m = machine { $0.keepAliveInterval = 0 }
        goLive(&m)
        let run = runTimer(&m, from: m.nextWake!, until: 1.01, pongAfter: { _ in 0.001 })
        #expect(run.wakes.count == 50, "one ping every 20 ms")
    }

    @Test func missingWelcomeCountsAsSilence() {
        var m = machine { $0.halfOpenTimeout = 4 }
        _ = m.connect(now: 0)
        _ = m.tokenReady(now: 0)
        _ = m.socketOpened(attempt: 1, now: 0)
        #expect(m.nextWake == 4)
        #expect(m.wakeTimerFired(now: 3) == [.wake(at: 4)])
        let actions = m.wakeTimerFired(now: 4)
        #expect(actions.first == .closeSocket(attempt: 1, code: 1000, reason: "keep-alive timeout"))
        #expect(logs(actions).contains { $0.1.contains("no welcome frame") })
        #expect(!actions.contains(.publish(.connecting)), "was never live")
    }

    @Test func handshakeTimeout() {
        var m = machine { $0.connectTimeout = 8 }
        _ = m.connect(now: 0)
        #expect(wake(m.tokenReady(now: 0)) == 8)
        #expect(m.wakeTimerFired(now: 7) == [.wake(at: 8)])
        let actions = m.wakeTimerFired(now: 8)
        #expect(actions.first == .closeSocket(attempt: 1, code: 1000, reason: "handshake timeout"))
        #expect(actions.contains(.cancelWake))
        #expect(actions.contains(.finishConnectWaiters))
        #expect(m.socketOpened(attempt: 1, now: 9) == [], "late handshake of an abandoned attempt")
    }

    @Test func staleCallbacksFromAnOlderAttemptAreIgnored() {
        var m = machine()
        goLive(&m)
        _ = m.socketClosed(attempt: 1, code: 1006, now: 1)
        _ = m.retryTimerFired(now: 2)
        _ = m.tokenReady(now: 2)
        #expect(m.attempt == 2)
        #expect(m.welcomeReceived(attempt: 1, now: 3) == [])
        #expect(m.socketClosed(attempt: 1, code: 1000, now: 3) == [])
        #expect(m.phase == .connecting)
    }

    @Test func disconnectClosesStopsRetryingAndReportsDisconnected() {
        var m = machine()
        goLive(&m)
        let actions = m.disconnect()
        #expect(actions.contains(.closeSocket(attempt: 1, code: 1000, reason: "client disconnect")))
        #expect(actions.contains(.cancelRetry))
        #expect(actions.contains(.cancelWake))
        #expect(actions.contains(.publish(.disconnected)))
        #expect(m.state == .disconnected)
        #expect(m.socketClosed(attempt: 1, code: 1000, now: 1) == [])
        #expect(m.retryTimerFired(now: 2) == [])
        #expect(m.wakeTimerFired(now: 100) == [])
        #expect(m.nextWake == nil)
        #expect(m.reconnectNow(now: 3) == [])
        #expect(m.tokenReady(now: 3) == [])
        #expect(!m.disconnect().contains(.publish(.disconnected)), "already disconnected")
    }

    @Test func disconnectWhileWaitingCancelsTheRetry() {
        var m = machine()
        goLive(&m)
        _ = m.socketClosed(attempt: 1, code: 1006, now: 1)
        let actions = m.disconnect()
        #expect(actions.contains(.cancelRetry))
        #expect(!actions.contains { if case .closeSocket = $0 { true } else { false } })
        #expect(m.connect(now: 5) == [.publish(.connecting), .fetchToken(fresh: false)])
    }

    @Test func connectWhileWaitingRetriesAtOnce() {
        var m = machine()
        goLive(&m)
        _ = m.socketClosed(attempt: 1, code: 1006, now: 1)
        #expect(m.connect(now: 1.1) == [.cancelRetry, .fetchToken(fresh: false)])
    }

    @Test func reconnectNowSkipsTheWaitAndResetsTheBackoff() {
        var m = machine()
        _ = m.connect(now: 0)
        failAttempts(&m, 5)
        _ = m.tokenReady(now: 0)
        _ = m.socketFailed(attempt: m.attempt, message: "x", now: 0)
        let actions = m.reconnectNow(now: 1)
        #expect(actions.first == .cancelRetry)
        #expect(actions.last == .fetchToken(fresh: false))
        _ = m.tokenReady(now: 1)
        #expect(retryDelay(m.socketFailed(attempt: m.attempt, message: "x", now: 1)) == 0.5)
    }

    @Test func reconnectNowProbesAnOpenStream() {
        var m = machine { $0.probeTimeout = 5 }
        goLive(&m)
        m.noteActivity(now: 99)
        #expect(m.reconnectNow(now: 100) == [.sendPing, .wake(at: 105)], "the probe's deadline, before the next ping")
        #expect(m.noteActivity(now: 101) == [.log(.debug, "the probe was answered; keeping the connection")])  // pong
        #expect(m.wakeTimerFired(now: 105) == [.wake(at: 120)], "answered: keep the socket; the next ping")
        #expect(m.noteActivity(now: 106) == [], "no probe, nothing to say")

        #expect(m.noteActivity(now: 199) == [])
        #expect(m.reconnectNow(now: 200) == [.sendPing, .wake(at: 205)])
        #expect(m.wakeTimerFired(now: 204) == [.wake(at: 205)])
        let actions = m.wakeTimerFired(now: 205)
        #expect(actions.first == .closeSocket(attempt: 1, code: 1000, reason: "keep-alive timeout"))
        #expect(m.phase == .waitingToRetry)
    }

    @Test func reconnectNowWhileConnectingDoesNothing() {
        var m = machine()
        _ = m.connect(now: 0)
        #expect(m.reconnectNow(now: 0) == [])
        _ = m.tokenReady(now: 0)
        #expect(m.reconnectNow(now: 0) == [])
    }
}
