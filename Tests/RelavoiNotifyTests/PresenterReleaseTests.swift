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
            let sentinel = Box(false)
            let thread = Box<pid_t?>(nil)
            presenter.flush {
                // On the presenter thread: its context is the thread-default one.
                Self.attachSentinel(to: g_main_context_get_thread_default(), destroyed: sentinel)
                thread.update { $0 = Self.currentThreadID() }
            }
            try waitFor("round \(round): the sentinel source is attached") { thread.value != nil }
            let tid = thread.value!
            XCTAssertTrue(Self.isPresenterThread(tid), "the presenter's thread shows in /proc/self/task by its name")

            presenter.stop(timeout: 30)
            // A source goes when its context is finalized, and only then: the
            // sentinel's one-hour timeout never fires.
            try waitFor("round \(round): the presenter's context is finalized") { sentinel.value }
            try waitFor("round \(round): the presenter thread has ended") { !Self.threadRuns(tid) }
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
        let first = try presenterThread(of: presenter)
        presenter.stop(timeout: 30)
        try waitFor("the first thread has ended") { !Self.threadRuns(first) }
        presenter.start()
        try waitFor("the second thread's new watch answers") { events.value == 2 }
        XCTAssertNotNil(presenter.liveSourceCount)
        let second = try presenterThread(of: presenter)
        XCTAssertNotEqual(first, second, "a new thread")
        presenter.stop(timeout: 30)
        try waitFor("the second thread has ended") { !Self.threadRuns(second) }
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

    /// The id of the thread `presenter` runs on (other presenters of the test
    /// process have threads of the same name).
    private func presenterThread(of presenter: NotificationPresenter) throws -> pid_t {
        let thread = Box<pid_t?>(nil)
        presenter.flush { thread.update { $0 = Self.currentThreadID() } }
        try waitFor("the presenter thread answers") { thread.value != nil }
        return thread.value!
    }

    /// The calling thread's id, from /proc/thread-self ("PID/task/TID"): Swift's Glibc has no gettid.
    private static func currentThreadID() -> pid_t? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { pid_t($0) }
    }

    private static func threadRuns(_ tid: pid_t) -> Bool { access("/proc/self/task/\(tid)", F_OK) == 0 }

    /// Linux keeps 15 bytes of a thread's name: "relavoi-presenter" shows as "relavoi-present".
    private static func isPresenterThread(_ tid: pid_t) -> Bool {
        read("/proc/self/task/\(tid)/comm")?.hasPrefix("relavoi-present") == true
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
