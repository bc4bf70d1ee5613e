import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct DesktopLifecycleMachineTests {
    typealias Action = DesktopLifecycleMachine.Action

    func withoutLogs(_ actions: [Action]) -> [Action] {
        actions.filter { if case .log = $0 { return false } else { return true } }
    }

    // MARK: Sleep and resume

    @Test func sleepClosesTheStreamThenLetsTheSystemSleep() {
        var life = DesktopLifecycleMachine()
        #expect(life.sleepServiceAppeared() == [.takeSleepLock])
        #expect(withoutLogs(life.prepareForSleep()) == [.closeStream])
        #expect(life.phase == .closingForSleep)
        // The lock is held until the stream is closed.
        #expect(life.streamClosedForSleep() == [.releaseSleepLock])
        #expect(life.phase == .asleep)
        #expect(life.streamClosedForSleep() == [])
        #expect(life.sleeps == 1)
    }

    @Test func resumeReconnectsAtOnceRefreshesTimersAndRetakesTheLock() {
        var life = DesktopLifecycleMachine()
        _ = life.prepareForSleep()
        _ = life.streamClosedForSleep()
        let actions = life.resumed()
        #expect(
            withoutLogs(actions) == [.releaseSleepLock, .takeSleepLock, .refreshTimers, .openStream, .reconnectNow])
        #expect(life.phase == .awake)
        // The next welcome reconciles calls in progress over REST.
        #expect(life.streamStateChanged(.connecting) == [])
        #expect(life.streamStateChanged(.connected) == [.reconcileWithServer])
    }

    @Test func resumeBeforeTheStreamFinishedClosing() {
        var life = DesktopLifecycleMachine()
        _ = life.prepareForSleep()
        #expect(withoutLogs(life.resumed()).contains(.openStream))
        // The late completion of the close does not release the new lock or change the phase.
        #expect(life.streamClosedForSleep() == [])
        #expect(life.phase == .awake)
    }

    @Test func resumeWithoutASleepSignalProbesTheOpenStream() {
        var life = DesktopLifecycleMachine()
        let actions = life.resumed()
        #expect(withoutLogs(actions).contains(.reconnectNow))
        #expect(actions.contains(.log(.message, "resumed from a sleep the agent did not see begin: reconnecting now")))
    }

    @Test func repeatedSleepSignalsAreIgnored() {
        var life = DesktopLifecycleMachine()
        _ = life.prepareForSleep()
        #expect(life.prepareForSleep() == [])
        _ = life.streamClosedForSleep()
        #expect(life.prepareForSleep() == [])
        #expect(life.sleeps == 1)
    }

    @Test func theStreamsOwnDisconnectDuringSleepIsExpected() {
        var life = DesktopLifecycleMachine()
        _ = life.prepareForSleep()
        #expect(life.streamStateChanged(.disconnected) == [])
        #expect(life.phase == .closingForSleep)
    }

    @Test func logindAppearingWhileAsleepTakesNoLockUntilResume() {
        var life = DesktopLifecycleMachine()
        _ = life.prepareForSleep()
        #expect(life.sleepServiceAppeared() == [])
    }

    // MARK: Network

    @Test func networkBackReconnectsOnceTheBurstSettled() {
        var life = DesktopLifecycleMachine()
        life.networkKnown(available: true)
        #expect(withoutLogs(life.networkChanged(available: false, now: 10)) == [])
        #expect(withoutLogs(life.networkChanged(available: true, now: 20)) == [.armNetworkTimer(after: 0.25)])
        // More changes in the same burst do not re-arm.
        #expect(life.networkChanged(available: true, now: 20.1) == [])
        #expect(withoutLogs(life.networkTimerFired(now: 20.25)) == [.reconnectNow])
        #expect(life.networkTimerFired(now: 20.3) == [])
    }

    @Test func aNewDefaultRouteWhileOnlineProbesTheStream() {
        var life = DesktopLifecycleMachine()
        life.networkKnown(available: true)
        #expect(life.networkChanged(available: true, now: 5) == [.armNetworkTimer(after: 0.25)])
        #expect(withoutLogs(life.networkTimerFired(now: 5.25)) == [.reconnectNow])
    }

    @Test func churningNetworkReconnectsAtMostEveryTwoSeconds() {
        var life = DesktopLifecycleMachine()
        var reconnects: [Double] = []
        var timerAt: Double?
        var now = 0.0
        while now < 10 {
            if let at = timerAt, at <= now {
                timerAt = nil
                if life.networkTimerFired(now: now).contains(.reconnectNow) { reconnects.append(now) }
            }
            for case .armNetworkTimer(let delay) in life.networkChanged(available: true, now: now) {
                timerAt = now + delay
            }
            now += 0.05
        }
        #expect(reconnects.count >= 4 && reconnects.count <= 5, "\(reconnects)")
        for (a, b) in zip(reconnects, reconnects.dropFirst()) { #expect(b - a >= 2 - 1e-9) }
    }

    @Test func networkDownCancelsAPendingReconnectAndAddsNothing() {
        var life = DesktopLifecycleMachine()
        life.networkKnown(available: true)
        _ = life.networkChanged(available: true, now: 0)
        #expect(withoutLogs(life.networkChanged(available: false, now: 0.1)) == [.cancelNetworkTimer])
        #expect(life.networkAvailable == false)
        // Down again: no action, no log.
        #expect(life.networkChanged(available: false, now: 0.2) == [])
        // A timer that fired anyway does nothing while down.
        #expect(life.networkTimerFired(now: 0.3) == [])
    }

    @Test func networkChangesWhileAsleepWaitForTheResume() {
        var life = DesktopLifecycleMachine()
        _ = life.networkChanged(available: true, now: 0)
        #expect(withoutLogs(life.prepareForSleep()) == [.cancelNetworkTimer, .closeStream])
        #expect(life.networkChanged(available: true, now: 1) == [])
        #expect(life.networkTimerFired(now: 1.3) == [])
    }

    // MARK: The end of the session

    @Test func sessionBusClosingEndsTheAgentOnce() {
        var life = DesktopLifecycleMachine()
        _ = life.networkChanged(available: true, now: 0)
        #expect(withoutLogs(life.sessionBusClosed()) == [.cancelNetworkTimer, .releaseSleepLock, .endAgent])
        #expect(life.sessionBusClosed() == [])
        #expect(life.phase == .ended)
    }

    @Test func afterTheEndNothingReconnects() {
        var life = DesktopLifecycleMachine()
        _ = life.sessionBusClosed()
        #expect(life.resumed() == [])
        #expect(life.networkChanged(available: true, now: 1) == [])
        #expect(life.streamStateChanged(.connected) == [])
        // A sleep during the shutdown is not held up.
        #expect(life.prepareForSleep() == [.releaseSleepLock])
    }

    @Test func anUnaskedDisconnectMeansTheAgentIsStopping() {
        var life = DesktopLifecycleMachine()
        #expect(withoutLogs(life.streamStateChanged(.disconnected)) == [.releaseSleepLock])
        #expect(life.phase == .ended)
        #expect(life.resumed() == [])
        #expect(life.sessionBusClosed() == [])
    }
}
