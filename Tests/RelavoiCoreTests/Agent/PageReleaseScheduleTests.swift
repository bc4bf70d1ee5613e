import Foundation
import Testing

@testable import RelavoiCore

@Suite struct PageReleaseScheduleTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func quietAfterStartThenOnceMoreThenNothing() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        #expect(schedule.nextRelease == at(1), "once start-up is quiet")
        schedule.released(now: at(1))
        #expect(schedule.nextRelease == at(61), "once more, for what ran only once after it")
        schedule.released(now: at(61))
        #expect(schedule.nextRelease == nil, "idle: no timer")
    }

    @Test func waitsForQuietButNotForever() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        schedule.released(now: at(1))
        schedule.released(now: at(61))
        schedule.changed(now: at(200))
        schedule.changed(now: at(200.5))
        #expect(schedule.nextRelease == at(201.5), "a second after the last change")
        for step in stride(from: 201.0, through: 220, by: 0.5) { schedule.changed(now: at(step)) }
        #expect(schedule.nextRelease == at(210), "changes that never stop: ten seconds after the first")
        schedule.released(now: at(210))
        #expect(schedule.nextRelease == at(270))
        schedule.released(now: at(270))
        #expect(schedule.nextRelease == nil)
    }

    @Test func aChangeBeforeTheSettlingReleaseStartsOver() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        schedule.released(now: at(1))
        schedule.changed(now: at(30))
        #expect(schedule.nextRelease == at(31), "the change's own release comes first")
        schedule.released(now: at(31))
        #expect(schedule.nextRelease == at(91), "and the settling one follows it")
        schedule.released(now: at(91))
        #expect(schedule.nextRelease == nil)
    }

    @Test func aSkippedSettlingReleaseWaitsForTheNextChange() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        #expect(!schedule.isSettling, "start-up's release is a change's")
        schedule.released(now: at(1))
        #expect(schedule.isSettling)
        schedule.skippedSettling()
        #expect(schedule.nextRelease == nil, "no timer while nothing changes")
        schedule.changed(now: at(300))
        #expect(!schedule.isSettling)
        #expect(schedule.nextRelease == at(301), "the change (a call's end) brings its own release")
        schedule.released(now: at(301))
        #expect(schedule.isSettling)
        #expect(schedule.nextRelease == at(361), "and its settling one")
    }

    @Test func aReleaseWithNothingChangedSchedulesNothing() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        schedule.released(now: at(1))
        schedule.released(now: at(61))
        schedule.released(now: at(500))
        #expect(schedule.nextRelease == nil, "however long the agent stays idle")
    }
}
