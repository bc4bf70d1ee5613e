import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// A wait's deadline: wall time counts, a pause of the process does not (up to a point).
final class WaitDeadlineTests: XCTestCase {
    func testTheTimeoutPassesWhenTheChecksComeAsTheLoopTurns() {
        var deadline = WaitDeadline(timeout: 1, now: 100)
        for step in 1...19 { XCTAssertFalse(deadline.hasPassed(now: 100 + Double(step) * 0.05)) }
        XCTAssertTrue(deadline.hasPassed(now: 101))
        XCTAssertEqual(deadline.pausedSeconds, 0)
    }

    func testAPauseOfTheProcessMovesTheDeadlineOut() {
        var deadline = WaitDeadline(timeout: 8, now: 0)
        XCTAssertFalse(deadline.hasPassed(now: 1))
        XCTAssertFalse(deadline.hasPassed(now: 98), "97 s without a turn: the process was not running")
        XCTAssertEqual(deadline.pausedSeconds, 97)
        for now in [100, 102, 104, 104.9] { XCTAssertFalse(deadline.hasPassed(now: now)) }
        XCTAssertTrue(deadline.hasPassed(now: 105), "the 7 s left before the pause are still there after it")
        XCTAssertEqual(deadline.pausedSeconds, 97)
    }

    func testSlowTurnsBelowTheThresholdCountInFull() {
        var deadline = WaitDeadline(timeout: 8, now: 0)
        XCTAssertFalse(deadline.hasPassed(now: 4.5))
        XCTAssertTrue(deadline.hasPassed(now: 9), "4.5 s turns (a slow check) are not pauses")
        XCTAssertEqual(deadline.pausedSeconds, 0)
    }

    func testPausesMoveItOutByTheAllowanceAtMostSoAWaitStillEnds() {
        var deadline = WaitDeadline(timeout: 1, now: 0)
        var now = 0.0
        var checks = 0
        repeat {
            now += 25  // a check that blocks 25 s each time (a hung D-Bus peer)
            checks += 1
        } while !deadline.hasPassed(now: now) && checks < 100
        XCTAssertEqual(deadline.pausedSeconds, WaitDeadline.stallAllowance)
        XCTAssertLessThanOrEqual(now, 1 + WaitDeadline.stallAllowance + 25)
    }

    /// The loop's own wait: a turn that blocks past the timeout (as a stopped
    /// process would) still sees the event that comes after it.
    func testLoopWaitSeesAnEventThatComesAfterAPause() {
        MainActor.assumeIsolated {
            var fired = false
            var blocked = false
            let ok = LoopWait.until(timeout: 1) {
                if !blocked {
                    blocked = true
                    Thread.sleep(forTimeInterval: WaitDeadline.stallThreshold + 1)
                    _ = GLibTimer.once(after: 0.2) { fired = true }
                }
                return fired
            }
            XCTAssertTrue(ok, "a pause longer than the timeout must not end the wait")
        }
    }
}
