import Foundation
import Testing

@testable import RelavoiCore

@Suite struct PageReleaseScheduleTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func quietAfterStartThenPeriodic() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        #expect(schedule.nextRelease == at(1), "once start-up is quiet")
        schedule.released(now: at(1))
        #expect(schedule.nextRelease == at(61), "then every minute")
    }

    @Test func waitsForQuietButNotForever() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        schedule.released(now: at(1))
        schedule.changed(now: at(20))
        schedule.changed(now: at(20.5))
        #expect(schedule.nextRelease == at(21.5), "a second after the last change")
        for step in stride(from: 21.0, through: 40, by: 0.5) { schedule.changed(now: at(step)) }
        #expect(schedule.nextRelease == at(30), "changes that never stop: ten seconds after the first")
        schedule.released(now: at(30))
        #expect(schedule.nextRelease == at(90))
    }

    @Test func thePeriodicReleaseComesFirstWhenDue() {
        var schedule = PageReleaseSchedule(startedAt: t0)
        schedule.released(now: at(0))
        schedule.changed(now: at(59.5))
        #expect(schedule.nextRelease == at(60))
    }
}
