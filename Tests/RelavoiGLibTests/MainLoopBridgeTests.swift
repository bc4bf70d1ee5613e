import CGLib
import Dispatch
import Foundation
import RelavoiGLib
import XCTest

/// Swift concurrency must run inside the GLib main loop on the main thread.
final class MainLoopBridgeTests: XCTestCase {
    // Synchronous on purpose: the test thread is the main thread and GLib owns
    // it for the duration, as in the agent; only the bridge can drain the main queue.
    func testMainActorTaskDispatchAndContinuationRunOnGLibLoop() throws {
        XCTAssertTrue(Thread.isMainThread)
        let seen = Recorder()
        let loop = g_main_loop_new(nil, 0)
        nonisolated(unsafe) let quitLoop = loop
        MainLoop.installDispatchBridge()
        GLibTimer.once(after: 0.01) {
            Task { @MainActor in
                seen.append(Thread.isMainThread ? "task-main" : "task-off-main")
                DispatchQueue.main.async {
                    seen.append("dispatch")
                    Task { @MainActor in
                        let value = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in
                            DispatchQueue.global().async { c.resume(returning: 42) }
                        }
                        seen.append("continuation-\(value)-\(Thread.isMainThread)")
                        g_main_loop_quit(quitLoop)
                    }
                }
            }
        }
        let watchdog = GLibTimer.once(after: 10) { g_main_loop_quit(quitLoop) }
        g_main_loop_run(loop)
        watchdog.cancel()
        g_main_loop_unref(loop)
        XCTAssertEqual(seen.items, ["task-main", "dispatch", "continuation-42-true"])
    }
}

final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ s: String) { lock.withLock { storage.append(s) } }
    var items: [String] { lock.withLock { storage } }
}
