import CGLib
import RelavoiGLib
import RelavoiNotify
import XCTest

/// A stopped driver leaves nothing behind: its thread ends, and its GLib
/// context (with the bus-name watch and libnotify's proxy, which hold
/// references to it) is finalized. Runs on the private bus `make test` starts;
/// no notification server is needed (the watch reports none).
final class DeliveryDriverReleaseTests: XCTestCase {
    func testStopReleasesTheContextAndEndsTheThread() throws {
        for round in 1...3 {
            let events = Box<[NotificationDeliveryDriver.Event]>([])
            let driver = NotificationDeliveryDriver { event in events.update { $0.append(event) } }
            driver.start()
            // The watch has answered: its state is set up on the driver's context.
            try waitFor("round \(round): the watch reports the server's availability") {
                events.value.contains { if case .availability = $0 { true } else { false } }
            }
            let sentinel = Box(false)
            let thread = Box<pid_t?>(nil)
            driver.flush {
                // On the delivery thread: its context is the thread-default one.
                Self.attachSentinel(to: g_main_context_get_thread_default(), destroyed: sentinel)
                thread.update { $0 = Self.currentThreadID() }
            }
            try waitFor("round \(round): the sentinel source is attached") { thread.value != nil }
            let tid = thread.value!
            XCTAssertTrue(Self.isDeliveryDriverThread(tid), "the driver's thread shows in /proc/self/task by its name")

            driver.stop(timeout: 30)
            // A source goes when its context is finalized, and only then: the
            // sentinel's one-hour timeout never fires.
            try waitFor("round \(round): the driver's context is finalized") { sentinel.value }
            try waitFor("round \(round): the delivery thread has ended") { !Self.threadRuns(tid) }
            XCTAssertNil(driver.liveSourceCount, "no context after stop")
        }
    }

    func testAStoppedDeliveryDriverStartsAgain() throws {
        let events = Box<Int>(0)
        let driver = NotificationDeliveryDriver { event in
            if case .availability = event { events.update { $0 += 1 } }
        }
        driver.start()
        try waitFor("the first thread's watch answers") { events.value == 1 }
        let first = try deliveryThread(of: driver)
        driver.stop(timeout: 30)
        try waitFor("the first thread has ended") { !Self.threadRuns(first) }
        driver.start()
        try waitFor("the second thread's new watch answers") { events.value == 2 }
        XCTAssertNotNil(driver.liveSourceCount)
        let second = try deliveryThread(of: driver)
        XCTAssertNotEqual(first, second, "a new thread")
        driver.stop(timeout: 30)
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

    /// The id of the thread `driver` runs on (other delivery drivers of the test
    /// process have threads of the same name).
    private func deliveryThread(of driver: NotificationDeliveryDriver) throws -> pid_t {
        let thread = Box<pid_t?>(nil)
        driver.flush { thread.update { $0 = Self.currentThreadID() } }
        try waitFor("the delivery thread answers") { thread.value != nil }
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

    /// Linux keeps 15 bytes of a thread's name: "relavoi-delivery" shows as "relavoi-deliver".
    private static func isDeliveryDriverThread(_ tid: pid_t) -> Bool {
        read("/proc/self/task/\(tid)/comm")?.hasPrefix("relavoi-deliver") == true
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
