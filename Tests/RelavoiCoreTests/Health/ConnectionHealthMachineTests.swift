import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct ConnectionHealthMachineTests {
    typealias Action = ConnectionHealthMachine.Action
    static let t0 = Date(timeIntervalSince1970: 1_784_117_000)
    static let offlineAfter = ConnectionHealthMachine.offlineAfter
    static let settle = ConnectionHealthMachine.settle

    static func t(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    /// The machine driven by a driver whose one timer fires on time: every
    /// step first fires `tick` at each deadline passed, and every action is kept
    /// with the second it came at.
    struct Run {
        var machine = ConnectionHealthMachine(now: t0)
        var log: [(at: Double, action: Action)] = []

        /// Moves the clock to `seconds`, firing the timer on the way.
        mutating func advance(to seconds: Double) {
            while let deadline = machine.nextDeadline, deadline <= t(seconds) {
                let actions = machine.tick(now: deadline)
                keep(actions, at: deadline.timeIntervalSince(t0))
                guard machine.nextDeadline != deadline else {
                    Issue.record("tick at a deadline did not move it")
                    return
                }
            }
        }

        mutating func keep(_ actions: [Action], at seconds: Double) {
            log += actions.map { (seconds, $0) }
        }

        mutating func stream(_ state: RelavoiConnectionState, at seconds: Double) {
            advance(to: seconds)
            keep(machine.streamStateChanged(state, now: t(seconds)), at: seconds)
        }

        mutating func refused(at seconds: Double) {
            advance(to: seconds)
            keep(machine.tokenRefused(now: t(seconds)), at: seconds)
        }

        mutating func credentialsChanged(at seconds: Double) {
            advance(to: seconds)
            keep(machine.credentialsChanged(now: t(seconds)), at: seconds)
        }

        /// Connected at `seconds` and held past the settle.
        mutating func connectAndSettle(at seconds: Double) {
            stream(.connected, at: seconds)
            advance(to: seconds + settle)
        }

        /// What the person saw: show, update and close, with when.
        var notices: [(at: Double, action: Action)] {
            log.filter {
                switch $0.action {
                case .showNotice, .updateNotice, .closeNotice: return true
                default: return false
                }
            }
        }

        var published: [ConnectionHealth] {
            log.compactMap { if case .publish(let health) = $0.action { return health } else { return nil } }
        }
    }

    @Test func startsReconnectingWithTheTimerArmedForOffline() {
        let run = Run()
        #expect(run.machine.current == .reconnecting(since: Self.t0))
        #expect(run.machine.nextDeadline == Self.t(Self.offlineAfter))
    }

    @Test func aTwentySecondBlipTellsNothing() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.stream(.connecting, at: 100)
        #expect(run.machine.current == .reconnecting(since: Self.t(100)))
        run.stream(.connected, at: 120)
        run.advance(to: 1000)
        #expect(run.notices.isEmpty)
        #expect(run.published == [.connected, .reconnecting(since: Self.t(100)), .connected])
        #expect(run.machine.current == .connected)
        #expect(run.machine.nextDeadline == nil)
    }

    @Test func aLongOutageTellsOnceAtTheThresholdAndClearsWithinTheSettle() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.stream(.connecting, at: 100)
        run.advance(to: 100 + Self.offlineAfter - 1)
        #expect(run.notices.isEmpty)
        run.advance(to: 900)
        let offline = ConnectionNotice(kind: .offline, since: Self.t(100))
        #expect(run.notices.map(\.at) == [100 + Self.offlineAfter])
        #expect(run.notices.map(\.action) == [.showNotice(offline)])
        #expect(run.machine.current == .offline(since: Self.t(100)))
        #expect(run.machine.current.since == Self.t(100))

        run.stream(.connected, at: 900)
        #expect(run.machine.current == .offline(since: Self.t(100)), "held until the connection settles")
        run.advance(to: 2000)
        #expect(run.notices.map(\.action) == [.showNotice(offline), .closeNotice])
        #expect(run.notices.last?.at == 900 + Self.settle)
        #expect(run.published.suffix(2) == [.offline(since: Self.t(100)), .connected])
    }

    @Test func aStartThatNeverConnectsIsOfflineSinceTheStart() {
        var run = Run()
        run.advance(to: 1000)
        #expect(run.notices.map(\.action) == [.showNotice(ConnectionNotice(kind: .offline, since: Self.t0))])
    }

    @Test func refusalTellsAtOnceAndNamesRefused() {
        var run = Run()
        run.refused(at: 3)
        #expect(run.notices.map(\.action) == [.showNotice(ConnectionNotice(kind: .refused, since: Self.t(3)))])
        #expect(run.machine.current == .refused(since: Self.t(3)))
        #expect(run.machine.current.name == "refused")
        // The stream keeps retrying and being refused: nothing more is said, not even offline.
        for minute in 1...20 { run.refused(at: 3 + 60 * Double(minute)) }
        run.advance(to: 3000)
        #expect(run.notices.count == 1)
        #expect(run.machine.nextDeadline == nil)
    }

    @Test func notSetUpTellsAtOnce() {
        var run = Run()
        run.keep(run.machine.credentialsMissing(now: Self.t0), at: 0)
        #expect(
            run.log.map(\.action) == [
                .publish(.notSetUp), .showNotice(ConnectionNotice(kind: .notSetUp, since: nil)), .cancelTimer,
            ])
        #expect(run.machine.current.since == nil)
        run.advance(to: 3000)
        #expect(run.notices.count == 1)
    }

    @Test func notSetUpThenLoginAndConnectClears() {
        var run = Run()
        run.keep(run.machine.credentialsMissing(now: Self.t0), at: 0)
        run.credentialsChanged(at: 500)
        #expect(run.machine.current == .notSetUp, "held until a connection proves the credentials")
        run.connectAndSettle(at: 502)
        #expect(run.notices.map(\.action).last == .closeNotice)
        #expect(run.notices.last?.at == 502 + Self.settle)
        #expect(run.machine.current == .connected)
    }

    @Test func flappingEveryFewSecondsForTenMinutesTellsAtMostOnce() {
        var run = Run()
        run.connectAndSettle(at: 0)
        var time = 10.0
        while time < 610 {
            run.stream(.connecting, at: time)
            run.stream(.connected, at: time + 3)
            time += 5
        }
        run.advance(to: 610)
        #expect(run.notices.count <= 1)
        #expect(!run.notices.contains { $0.action == .closeNotice })
        // Told as one outage since the first drop, not as a state per drop.
        #expect(run.published.count <= 3)
        if run.notices.count == 1 { #expect(run.machine.current == .offline(since: Self.t(10))) }
    }

    @Test func droppingBetweenConnectionsThatHoldTellsNothing() {
        var run = Run()
        var time = 0.0
        while time < 600 {
            run.stream(.connected, at: time)
            run.stream(.connecting, at: time + 8)
            time += 11
        }
        run.advance(to: 600)
        #expect(run.notices.isEmpty)
    }

    @Test func anHourOfSuspendWhileDisconnectedFiresNoStaleNotice() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.stream(.connecting, at: 100)
        #expect(run.machine.nextDeadline == Self.t(100 + Self.offlineAfter))
        // The monotonic timer fires an hour late by the wall clock.
        let resumed = 100 + 3600.0
        run.keep(run.machine.tick(now: Self.t(resumed)), at: resumed)
        #expect(run.notices.isEmpty)
        #expect(run.machine.current == .reconnecting(since: Self.t(100)))
        #expect(run.machine.nextDeadline == Self.t(resumed + Self.offlineAfter))
        // Still down a full threshold after the resume: told once, since the real loss.
        run.advance(to: resumed + Self.offlineAfter)
        #expect(run.notices.map(\.action) == [.showNotice(ConnectionNotice(kind: .offline, since: Self.t(100)))])
    }

    @Test func aReconnectSoonAfterResumeTellsNothing() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.stream(.connecting, at: 100)
        // The first input after an hour's suspend is the stream's own reconnect, not the late timer.
        let resumed = 100 + 3600.0
        run.keep(run.machine.streamStateChanged(.connected, now: Self.t(resumed)), at: resumed)
        run.advance(to: resumed + 100)
        #expect(run.notices.isEmpty)
        #expect(run.machine.current == .connected)
    }

    @Test func aClockSetBackRestartsTheCount() {
        var run = Run()
        run.stream(.connecting, at: 100)
        run.keep(run.machine.tick(now: Self.t(50)), at: 50)
        #expect(run.notices.isEmpty)
        #expect(run.machine.nextDeadline == Self.t(50 + Self.offlineAfter))
    }

    @Test func refusedThenFixedAndConnectedClears() {
        var run = Run()
        run.refused(at: 3)
        run.credentialsChanged(at: 50)
        #expect(run.machine.current == .refused(since: Self.t(3)), "held until a connection proves the fix")
        run.stream(.connected, at: 55)
        run.advance(to: 55 + Self.settle - 0.5)
        #expect(run.notices.count == 1)
        run.advance(to: 100)
        #expect(run.notices.map(\.action).last == .closeNotice)
        #expect(run.notices.last?.at == 55 + Self.settle)
        #expect(run.published.last == .connected)
    }

    @Test func newCredentialsRefusedAgainSayNothingNew() {
        var run = Run()
        run.refused(at: 3)
        run.credentialsChanged(at: 50)
        run.refused(at: 52)
        #expect(run.notices.count == 1)
        #expect(run.machine.current == .refused(since: Self.t(3)))
    }

    @Test func newCredentialsButNoServerBecomeOfflineInTheSameNotice() {
        var run = Run()
        run.refused(at: 3)
        run.credentialsChanged(at: 50)
        run.advance(to: 50 + Self.offlineAfter - 1)
        #expect(run.notices.count == 1)
        run.advance(to: 50 + Self.offlineAfter)
        #expect(
            run.notices.map(\.action) == [
                .showNotice(ConnectionNotice(kind: .refused, since: Self.t(3))),
                .updateNotice(ConnectionNotice(kind: .offline, since: Self.t0)),
            ])
    }

    @Test func offlineThenRefusedUpdatesTheOneNoticeInPlace() {
        var run = Run()
        run.advance(to: Self.offlineAfter)
        run.refused(at: 200)
        #expect(
            run.notices.map(\.action) == [
                .showNotice(ConnectionNotice(kind: .offline, since: Self.t0)),
                .updateNotice(ConnectionNotice(kind: .refused, since: Self.t(200))),
            ])
        #expect(run.machine.current == .refused(since: Self.t(200)))
    }

    @Test func aRefusalWhileConnectedIsIgnored() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.refused(at: 30)
        #expect(run.notices.isEmpty)
        #expect(run.machine.current == .connected)
    }

    @Test func thePublishedStateFollowsEveryChangeForCtlAndDBus() {
        var run = Run()
        run.connectAndSettle(at: 1)
        run.stream(.connecting, at: 100)
        run.advance(to: 100 + Self.offlineAfter)
        run.refused(at: 300)
        run.credentialsChanged(at: 310)
        run.connectAndSettle(at: 311)
        #expect(
            run.published == [
                .connected, .reconnecting(since: Self.t(100)), .offline(since: Self.t(100)),
                .refused(since: Self.t(300)), .connected,
            ])
        #expect(run.published.map(\.name) == ["connected", "reconnecting", "offline", "refused", "connected"])
        #expect(run.published.map(\.since) == [nil, Self.t(100), Self.t(100), Self.t(300), nil])
        #expect(run.machine.current == run.published.last)
    }

    /// The agent's process tests shorten the wait for offline; nothing else changes.
    @Test func aShorterOfflineThresholdTellsOfflineSooner() {
        var machine = ConnectionHealthMachine(now: Self.t0, offlineAfter: 3)
        #expect(machine.nextDeadline == Self.t(3))
        let actions = machine.tick(now: Self.t(3))
        #expect(actions.contains(.showNotice(ConnectionNotice(kind: .offline, since: Self.t0))))
        #expect(machine.current == .offline(since: Self.t0))
    }
}
