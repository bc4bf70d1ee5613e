import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// A live call whose notification the server expired while it was to leave the
/// screen by itself (Plasma, while the panel widget shows the call).
@Suite struct BannerMachineOffScreenTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)

    func live() -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: "s1", proxyNumber: "+1555", startedAt: t0),
            verified: true, label: "Rider", phase: .active)
    }

    @Test func theCallStaysWithoutTicksAndItsEndShowsAgain() {
        var machine = BannerMachine()
        _ = machine.show(live(), key: "k", now: t0)
        #expect(machine.expiredOffScreen(key: "k") == [])
        #expect(machine.banners["k"] != nil, "kept: the panel and Calls still show it")
        #expect(machine.tick(now: t0 + 5) == [], "its ticks are not shown")
        #expect(
            machine.nextWake(after: t0 + 5, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: true) == t0
                + 6,
            "the timer still runs for the panel item")
        #expect(
            machine.nextWake(after: t0 + 5, liveSecondsShown: true, outrungHidesTimer: false, secondsWanted: false)
                == t0 + BannerLimits.maximumActive, "with none: only its 8-hour bound")
        let ended = machine.end(key: "k", policy: .default, now: t0 + 6)
        #expect(ended.count == 1)
        guard case .present(_, let snapshot) = ended.first else {
            Issue.record("the end is shown: \(ended)")
            return
        }
        #expect(snapshot.kind == .ended && snapshot.seconds == 6)
        #expect(machine.offScreen.isEmpty)
    }

    @Test func anUnknownOrClosedBannerIsNotKept() {
        var machine = BannerMachine()
        #expect(machine.expiredOffScreen(key: "none") == [])
        #expect(machine.offScreen.isEmpty)
        _ = machine.show(live(), key: "k", now: t0)
        _ = machine.expiredOffScreen(key: "k")
        _ = machine.close(key: "k")
        #expect(machine.offScreen.isEmpty && machine.banners.isEmpty)
    }
}
