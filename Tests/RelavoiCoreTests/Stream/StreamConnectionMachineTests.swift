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

    func logs(_ actions: [Action]) -> [(StreamLogLevel, String)] {
        actions.compactMap { if case .log(let level, let text) = $0 { return (level, text) } else { return nil } }
    }

    @Test func happyPathWelcomeGatesConnected() {
        var m = machine()
        #expect(m.state == .disconnected)
        #expect(m.connect(now: 0) == [.publish(.connecting), .fetchToken(fresh: false)])
        #expect(m.state == .connecting)
        #expect(
            m.tokenReady(now: 0.1) == [.openSocket(attempt: 1), .startHeartbeat(every: m.settings.heartbeatPeriod)])
        _ = m.socketOpened(attempt: 1, now: 0.2)
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
        #expect(actions.contains(.stopHeartbeat))
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
        #expect(m.settings.heartbeatPeriod == 5, "min(keepAlive, halfOpen / 4, connectTimeout / 4)")
        #expect(m.heartbeat(now: 10) == [])
        #expect(m.heartbeat(now: 20) == [.sendPing])
        #expect(m.heartbeat(now: 30) == [])
        m.noteActivity(now: 35)  // pong
        #expect(m.heartbeat(now: 40) == [.sendPing])
        #expect(m.heartbeat(now: 70) == [.sendPing])
        let replaced = m.heartbeat(now: 80)
        #expect(replaced.first == .closeSocket(attempt: 1, code: 1000, reason: "keep-alive timeout"))
        #expect(replaced.contains(.publish(.connecting)))
        #expect(retryDelay(replaced) == 0.5)
        #expect(m.phase == .waitingToRetry)
        #expect(m.socketClosed(attempt: 1, code: 1006, now: 81) == [], "the replaced socket's close is stale")
    }

    @Test func aSilentSocketIsReplacedWithinSixtySecondsWithTheDefaults() {
        for silenceStart in stride(from: 0.0, to: 20, by: 0.7) {
            var m = machine()
            goLive(&m)
            m.noteActivity(now: silenceStart)
            var now = 0.0
            var detectedAt: Double?
            while now < 200, detectedAt == nil {
                now += m.settings.heartbeatPeriod
                if m.heartbeat(now: now).contains(where: { if case .closeSocket = $0 { true } else { false } }) {
                    detectedAt = now
                }
            }
            #expect(detectedAt.map { $0 - silenceStart <= 60 } == true)
        }
    }

    @Test func missingWelcomeCountsAsSilence() {
        var m = machine { $0.halfOpenTimeout = 4 }
        _ = m.connect(now: 0)
        _ = m.tokenReady(now: 0)
        _ = m.socketOpened(attempt: 1, now: 0)
        #expect(m.heartbeat(now: 3) == [])
        let actions = m.heartbeat(now: 4)
        #expect(actions.first == .closeSocket(attempt: 1, code: 1000, reason: "keep-alive timeout"))
        #expect(logs(actions).contains { $0.1.contains("no welcome frame") })
        #expect(!actions.contains(.publish(.connecting)), "was never live")
    }

    @Test func handshakeTimeout() {
        var m = machine { $0.connectTimeout = 8 }
        _ = m.connect(now: 0)
        _ = m.tokenReady(now: 0)
        #expect(m.heartbeat(now: 7) == [])
        let actions = m.heartbeat(now: 8)
        #expect(actions.first == .closeSocket(attempt: 1, code: 1000, reason: "handshake timeout"))
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
        #expect(actions.contains(.stopHeartbeat))
        #expect(actions.contains(.publish(.disconnected)))
        #expect(m.state == .disconnected)
        #expect(m.socketClosed(attempt: 1, code: 1000, now: 1) == [])
        #expect(m.retryTimerFired(now: 2) == [])
        #expect(m.heartbeat(now: 100) == [])
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
        #expect(m.reconnectNow(now: 100) == [.sendPing, .checkAfter(5)])
        #expect(m.noteActivity(now: 101) == [.log(.debug, "the probe was answered; keeping the connection")])  // pong
        #expect(m.heartbeat(now: 105) == [], "answered: keep the socket")
        #expect(m.noteActivity(now: 106) == [], "no probe, nothing to say")

        #expect(m.noteActivity(now: 199) == [])
        #expect(m.reconnectNow(now: 200) == [.sendPing, .checkAfter(5)])
        #expect(m.heartbeat(now: 204) == [])
        let actions = m.heartbeat(now: 205)
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
