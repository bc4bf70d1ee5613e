import CGLib
import Dispatch
import RelavoiGLib
import XCTest

/// `WakeSource` runs its body on the thread that iterates its context, once
/// per batch of wakes, and not at all without one.
final class WakeSourceTests: XCTestCase {
    func testWakesFromAnotherThreadRunTheBodyOnceOnTheContextsThread() throws {
        let context = g_main_context_new()!
        defer { g_main_context_unref(context) }
        var runs = 0
        var ranOn: pthread_t?
        let source = WakeSource(context: context) {
            runs += 1
            ranOn = pthread_self()
        }
        XCTAssertEqual(g_main_context_iteration(context, 0), 0, "nothing is ready before a wake")
        let woken = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<5 { source.wake() }
            woken.signal()
        }
        woken.wait()
        // Blocks until the source is ready: the wakes woke the context.
        g_main_context_iteration(context, 1)
        XCTAssertEqual(runs, 1, "five wakes before an iteration fold into one run")
        XCTAssertEqual(ranOn.map { pthread_equal($0, pthread_self()) }, 1)
        XCTAssertEqual(g_main_context_iteration(context, 0), 0, "ready again only after another wake")
        source.wake()
        g_main_context_iteration(context, 1)
        XCTAssertEqual(runs, 2)
        source.cancel()
        source.wake()
        XCTAssertEqual(g_main_context_iteration(context, 0), 0, "a cancelled source never runs")
        XCTAssertEqual(runs, 2)
    }
}
