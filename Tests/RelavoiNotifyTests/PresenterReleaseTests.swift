import CGLib
import RelavoiGLib
import RelavoiNotify
import XCTest

/// A stopped presenter leaves nothing behind: its thread ends, and its GLib
/// context (with the bus-name watch and libnotify's proxy, which hold
/// references to it) is finalized. Runs on the private bus `make test` starts;
/// no notification server is needed (the watch reports none).
final class PresenterReleaseTests: XCTestCase {
    func testStopReleasesTheContextAndEndsTheThread() throws {
        for round in 1...3 {
            let events = Box<[NotificationPresenter.Event]>([])
            let presenter = NotificationPresenter { event in events.update { $0.append(event) } }
            presenter.start()
            // The watch has answered: its state is set up on the presenter's context.
            try waitFor("round \(round): the watch reports the server's availability") {
                events.value.contains { if case .availability = $0 { true } else { false } }
            }
            XCTAssertTrue(presenterThreadRuns(), "the presenter thread shows in /proc/self/task")
            let sentinel = Box(false)
            let attached = Box(false)
            presenter.flush {
                // On the presenter thread: its context is the thread-default one.
                Self.attachSentinel(to: g_main_context_get_thread_default(), destroyed: sentinel)
                attached.update { $0 = true }
            }
            try waitFor("round \(round): the sentinel source is attached") { attached.value }

            presenter.stop(timeout: 30)
            // A source goes when its context is finalized, and only then: the
            // sentinel's one-hour timeout never fires.
            try waitFor("round \(round): the presenter's context is finalized") { sentinel.value }
            try waitFor("round \(round): the presenter thread has ended") { !presenterThreadRuns() }
            XCTAssertNil(presenter.liveSourceCount, "no context after stop")
        }
    }

    func testAStoppedPresenterStartsAgain() throws {
        let events = Box<Int>(0)
        let presenter = NotificationPresenter { event in
            if case .availability = event { events.update { $0 += 1 } }
        }
        presenter.start()
        try waitFor("the first thread's watch answers") { events.value == 1 }
        presenter.stop(timeout: 30)
        try waitFor("the first thread has ended") { !presenterThreadRuns() }
        presenter.start()
        try waitFor("the second thread's new watch answers") { events.value == 2 }
        XCTAssertNotNil(presenter.liveSourceCount)
        presenter.stop(timeout: 30)
        try waitFor("the second thread has ended") { !presenterThreadRuns() }
    }

    // MARK: - Helpers

    private static func attachSentinel(to context: OpaquePointer?, destroyed: Box<Bool>) {
        let source = g_timeout_source_new_seconds(3600)!
        let never: GSourceFunc = { _ in gboolean(1) }
        let gone: GDestroyNotify = { data in
            Unmanaged<Box<Bool>>.fromOpaque(data!).takeRetainedValue().update { $0 = true }
        }
        g_source_set_callback(source, never, Unmanaged.passRetained(destroyed).toOpaque(), gone)
        g_source_attach(source, context)
        g_source_unref(source)
    }

    /// Linux keeps 15 bytes of a thread's name: "relavoi-presenter" shows as "relavoi-present".
    private func presenterThreadRuns() -> Bool {
        guard let directory = opendir("/proc/self/task") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Int(tid) != nil, let name = Self.read("/proc/self/task/\(tid)/comm") else { continue }
            if name.hasPrefix("relavoi-present") { return true }
        }
        return false
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Polls `condition` every 10 ms for up to 30 s.
    private func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = g_get_monotonic_time() + 30_000_000
        while !condition() {
            if g_get_monotonic_time() > deadline { throw TimedOut(what: what) }
            g_usleep(10_000)
        }
    }
}

private struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting: \(what)" }
}

/// A value shared with the presenter thread.
private final class Box<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
