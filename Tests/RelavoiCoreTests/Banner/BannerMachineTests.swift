import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct BannerMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)

    func activeBanner(startedAt: Date) -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: "s1", proxyNumber: "+1555", startedAt: startedAt),
            verified: true, label: "Rider", phase: .active)
    }

    @Test func elapsedTimeComesFromStartAndClockSoItNeverDrifts() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        let later = machine.tick(now: t0.addingTimeInterval(3725.9))
        #expect(
            later == [
                .present(
                    key: "k",
                    snapshot: .init(
                        kind: .active, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 3725,
                        startedAt: t0))
            ])
    }

    @Test func nextWakeIsTheCallsOwnNextSecondWhileTicking() {
        var machine = BannerMachine()
        #expect(
            machine.nextWake(after: t0, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false) == nil,
            "no banner, no timer")
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        // The call started at .25: its seconds turn at .25, where the panel's timers turn too.
        #expect(
            machine.nextWake(after: t0, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false)
                == t0.addingTimeInterval(1))
        #expect(
            machine.nextWake(
                after: t0.addingTimeInterval(41.7), liveSecondsShown: true, outrungHidesTimer: false,
                secondsWanted: false)
                == t0.addingTimeInterval(42))
        #expect(
            machine.nextWake(
                after: t0.addingTimeInterval(42), liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false
            )
                == t0.addingTimeInterval(43), "not the same moment again"
        )
        // Just past a turn, the tick shows the new second.
        #expect(machine.tick(now: t0.addingTimeInterval(42.005)).first.map(Self.seconds) == 42)
    }

    @Test func nextWakeIsTheEarliestOfEachCallsSecondAndTheCloseTimes() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "a", now: t0)
        let later = t0.addingTimeInterval(10.5)  // a second call, started half a second apart
        _ = machine.show(activeBanner(startedAt: later), key: "b", now: later)
        #expect(
            machine.nextWake(after: later, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false)
                == t0.addingTimeInterval(11))
        #expect(
            machine.nextWake(
                after: t0.addingTimeInterval(11), liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false
            )
                == later.addingTimeInterval(1))
        _ = machine.end(key: "a", policy: .after(t0.addingTimeInterval(11.2)), now: later)
        _ = machine.end(key: "b", policy: .default, now: later)
        #expect(
            machine.nextWake(after: later, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false)
                == t0.addingTimeInterval(11.2),
            "nothing ticks: the first close")
    }

    @Test func aCallAnsweredAheadOfTheClockWakesAtItsStart() {
        var machine = BannerMachine()
        let ahead = t0.addingTimeInterval(0.4)
        _ = machine.show(activeBanner(startedAt: ahead), key: "k", now: t0)
        #expect(
            machine.nextWake(after: t0, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false) == ahead
        )
    }

    static func seconds(_ action: BannerMachine.Action) -> Int? {
        guard case .present(_, let snapshot) = action else { return nil }
        return snapshot.seconds
    }

    @Test func immediateEndClosesAndRemoves() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        #expect(
            machine.end(key: "k", policy: .immediate, now: t0) == [.close(key: "k"), .removed(key: "k", byUser: false)])
        #expect(machine.isEmpty)
        #expect(
            machine.nextWake(after: t0, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false) == nil)
    }

    @Test func defaultEndLingersAtMostFourHours() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        let end = t0.addingTimeInterval(90)
        let actions = machine.end(key: "k", policy: .default, now: end)
        #expect(
            actions == [
                .present(
                    key: "k",
                    snapshot: .init(kind: .ended, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 90))
            ])
        #expect(
            machine.nextWake(after: end, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false)
                == end.addingTimeInterval(4 * 3600))
        #expect(machine.tick(now: end.addingTimeInterval(4 * 3600 - 1)).isEmpty, "ended banners do not tick")
        #expect(
            machine.tick(now: end.addingTimeInterval(4 * 3600)) == [
                .close(key: "k"), .removed(key: "k", byUser: false),
            ])
    }

    @Test func afterDateIsClampedToNowAndFourHours() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        _ = machine.end(key: "k", policy: .after(t0.addingTimeInterval(24 * 3600)), now: t0)
        #expect(machine.banners["k"]?.closeAt == t0.addingTimeInterval(4 * 3600))
        var other = BannerMachine()
        _ = other.show(activeBanner(startedAt: t0), key: "k", now: t0)
        #expect(
            other.end(key: "k", policy: .after(t0.addingTimeInterval(-60)), now: t0) == [
                .close(key: "k"), .removed(key: "k", byUser: false),
            ])
    }

    @Test func explicitDurationWinsOverMeasured() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        _ = machine.end(key: "k", policy: .default, durationSeconds: 42, now: t0.addingTimeInterval(100))
        #expect(machine.banners["k"]?.snapshot(at: t0).seconds == 42)
    }

    @Test func activeBannerEndsAfterEightHours() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        let late = t0.addingTimeInterval(8 * 3600)
        let actions = machine.tick(now: late)
        #expect(actions.count == 1)
        #expect(
            machine.banners["k"]?.phase == .ended(durationSeconds: 8 * 3600, closeAt: late.addingTimeInterval(4 * 3600))
        )
    }

    @Test func userDismissalRemovesWithoutClosingAndNoTickShowsItAgain() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        #expect(machine.closedByServer(key: "k", byUser: true) == [.removed(key: "k", byUser: true)])
        #expect(machine.tick(now: t0.addingTimeInterval(5)).isEmpty)
        #expect(machine.update(key: "k", elapsedSeconds: 3, verified: true, label: "x", now: t0).isEmpty)
    }

    @Test func updateReanchorsTheTimer() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0), key: "k", now: t0)
        let now = t0.addingTimeInterval(10)
        _ = machine.update(key: "k", elapsedSeconds: 120, verified: false, label: "New", now: now)
        #expect(machine.banners["k"]?.snapshot(at: now.addingTimeInterval(1)).seconds == 121)
        #expect(machine.banners["k"]?.verified == false)
    }

    @Test func ringingThenAnsweredStartsTheTimerAtTheEventTime() {
        var machine = BannerMachine()
        var ringing = activeBanner(startedAt: t0)
        ringing.phase = .ringing
        _ = machine.show(ringing, key: "k", now: t0)
        #expect(
            machine.nextWake(after: t0, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false) == nil,
            "ringing does not tick")
        let answeredAt = t0.addingTimeInterval(-30)  // answered before we heard of it
        let actions = machine.answer(key: "k", startedAt: answeredAt, now: t0)
        #expect(
            actions == [
                .present(
                    key: "k",
                    snapshot: .init(
                        kind: .active, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 30,
                        startedAt: answeredAt))
            ])
    }

    @Test func futureStartShowsZeroNotNegative() {
        var machine = BannerMachine()
        _ = machine.show(activeBanner(startedAt: t0.addingTimeInterval(3600)), key: "k", now: t0)
        #expect(
            machine.tick(now: t0).first
                == .present(
                    key: "k",
                    snapshot: .init(
                        kind: .active, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 0,
                        startedAt: t0.addingTimeInterval(3600))))
    }
}
