import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// Suspend and resume through logind's `PrepareForSleep` (python3-dbusmock's
/// logind on a private system bus), against the built agent.
final class SleepResumeProcessTests: XCTestCase {
    /// Before sleep the stream closes cleanly and then the sleep lock goes;
    /// after resume the stream is live again at once, a call answered while
    /// asleep shows its true elapsed time, a call that ended while asleep
    /// loses its banner, and the lock is held again for the next sleep.
    func testSleepClosesTheStreamAndResumeReconnectsAndReconciles() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness { h in
                h.session("ses_through", label: "Through")
                h.session("ses_ends", label: "Ends")
                h.answer("ses_through")
                h.answer("ses_ends")
                h.waitForNotify { $0.summary == "Through" && $0.hints["category"] == "call" }
                h.waitForNotify { $0.summary == "Ends" && $0.hints["category"] == "call" }

                h.logind.prepareForSleep(true)
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { h.sandbox.liveClientCount == 0 && !h.logind.agentHoldsSleepLock },
                    "stream still open or sleep lock still held:\n\(h.agent.log.suffix(2000))")
                XCTAssertTrue(h.agent.log.contains("Relavoi stream: disconnected"), "closed by the client, cleanly")

                // While asleep: a call is answered 95 s before the resume (its event is
                // lost: no replay) and the other call ends.
                h.session("ses_new", label: "Newcomer")
                h.sandbox.upsertCall(
                    SandboxCall(
                        id: "call_new", sessionId: "ses_new", status: "ANSWERED", initiatedAt: Date() - 100,
                        answeredAt: Date() - 95))
                var ended = try XCTUnwrap(h.sandbox.calls.first { $0.sessionId == "ses_ends" })
                ended.status = "COMPLETED"
                ended.endedAt = Date()
                ended.durationSeconds = 3
                h.sandbox.upsertCall(ended)
                // The sleep lock went after the stream closed: the agent has handled the
                // sleep, and a reconnect would have been planned (and logged) by now.
                XCTAssertEqual(
                    h.streamAttempts(afterLast: "the system is going to sleep"), [], "no reconnect while asleep")
                XCTAssertEqual(h.welcomes.count, 1, "no reconnect while asleep")
                let closesBefore = h.notifications!.closeCalls().count

                let reconcilesBefore = h.agent.log.components(separatedBy: "the reconcile after connecting is over")
                    .count
                let resumed = Date()
                h.logind.prepareForSleep(false)
                let latency = try XCTUnwrap(
                    h.secondsToWelcome(after: resumed), "no reconnect after resume:\n\(h.agent.log)")
                report("resume → welcome", latency)
                XCTAssertTrue(h.agent.log.contains("resumed from sleep: reconnecting now"), "the resume reconnected")

                let newcomer = h.waitForNotify { $0.summary == "Newcomer" && $0.hints["category"] == "call" }
                let shown = try XCTUnwrap(newcomer?.body)
                XCTAssertTrue(shown.contains("01:3"), "true elapsed time (95 s) after resume: \(shown)")
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { h.notifications!.closeCalls().count == closesBefore + 1 },
                    "the banner of the call that ended while asleep closes:\n\(h.agent.log.suffix(2000))")
                XCTAssertTrue(LoopWait.until(timeout: 30) { h.logind.agentHoldsSleepLock }, "lock taken again")
                // The reconcile after the resume is over: it closed one banner, not two.
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) {
                        h.agent.log.components(separatedBy: "the reconcile after connecting is over").count
                            > reconcilesBefore
                    }, "no reconcile after resume:\n\(h.agent.log.suffix(2000))")
                XCTAssertEqual(
                    h.notifications!.closeCalls().count, closesBefore + 1, "the call still going keeps its banner")
                XCTAssertTrue(h.agent.process.isRunning)
            }
        }
    }

    /// A backoff wait from before the sleep is not carried over: with the
    /// stream waiting seconds before its next attempt, a resume connects at once.
    func testResumeSkipsABackoffWaitFromBeforeTheSleep() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness { h in
                let due = try XCTUnwrap(h.failUntilBackoff(atLeast: 3))
                h.logind.prepareForSleep(true)
                XCTAssertTrue(LoopWait.until(timeout: 30) { !h.logind.agentHoldsSleepLock }, "sleep lock released")
                h.sandbox.failTokenRequests = nil
                let resumed = Date()
                let logBeforeResume = h.agent.log.count
                h.logind.prepareForSleep(false)
                let latency = try XCTUnwrap(
                    h.secondsToWelcome(after: resumed), "no reconnect after resume:\n\(h.agent.log)")
                report("resume during backoff → welcome", latency)
                report("(the backoff wait had left)", due.timeIntervalSince(resumed))
                // The backoff wait from before the sleep was dropped: the stream logs
                // "the retry wait is over" when a wait runs out, and none did before the welcome.
                // The attempt's "connecting to" comes after any such line: read the log up to it.
                var sinceResume = ""
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) {
                        sinceResume = String(h.agent.log.dropFirst(logBeforeResume))
                        return sinceResume.contains("connecting to")
                    }, "no attempt logged after resume:\n\(sinceResume)")
                XCTAssertFalse(
                    sinceResume.contains("the retry wait is over"), "waited out the backoff:\n\(sinceResume)")
            }
        }
    }

    /// Several sleeps in a row, one of them aborted (resume before the close
    /// finished): the agent ends up live with one socket, holding its lock.
    func testRepeatedAndAbortedSleeps() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness { h in
                for round in 0..<3 {
                    // Count resumes so that a round waits for its own, not the state before it.
                    let resumesBefore = h.agent.log.components(separatedBy: "resumed from").count
                    h.logind.prepareForSleep(true)
                    if round == 1 {
                        h.logind.prepareForSleep(false)  // aborted at once
                    } else {
                        XCTAssertTrue(
                            LoopWait.until(timeout: 30) { h.sandbox.liveClientCount == 0 },
                            "round \(round): the stream did not close for sleep:\n\(h.agent.log.suffix(2000))")
                        h.logind.prepareForSleep(false)
                    }
                    XCTAssertTrue(
                        LoopWait.until(timeout: 30) {
                            h.agent.log.components(separatedBy: "resumed from").count > resumesBefore
                                && h.sandbox.liveClientCount == 1 && h.logind.agentHoldsSleepLock
                        },
                        "round \(round): not live again after resume:\n\(h.agent.log.suffix(2000))")
                }
                // A call after the last resume shows: the agent is past the resume's work,
                // and since it the stream opened one socket and planned nothing else.
                h.session("ses_marker", label: "Marker")
                h.answer("ses_marker")
                h.waitForNotify(timeout: 30) { $0.summary == "Marker" }
                let attempts = h.streamAttempts(afterLast: "resumed from")
                XCTAssertEqual(attempts.filter { !$0.contains("connecting to") }, [], "\(attempts)")
                XCTAssertEqual(attempts.count, 1, "one socket after the last resume: \(attempts)")
                XCTAssertEqual(h.sandbox.liveClientCount, 1)
                XCTAssertEqual(h.logind.inhibitors().count, 1, "one lock, not one per sleep")
            }
        }
    }

    /// logind going away and coming back (a restart): the agent sees the
    /// new owner of the name and takes a sleep lock from it.
    func testARestartedLogindGetsTheSleepLockAgain() throws {
        try MainActor.assumeIsolated {
            try withDesktopHarness { h in
                try h.logind.restart()
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { h.logind.agentHoldsSleepLock },
                    "no lock from the new logind (inhibitors \(h.logind.inhibitors())):\n\(h.agent.log.suffix(2000))")
                XCTAssertEqual(h.logind.inhibitors().count, 1)
                h.logind.prepareForSleep(true)
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { h.sandbox.liveClientCount == 0 && !h.logind.agentHoldsSleepLock },
                    "the new logind's PrepareForSleep did not close the stream:\n\(h.agent.log.suffix(2000))")
            }
        }
    }
}
