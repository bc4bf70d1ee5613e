import CGLib
import RelavoiGLib
import XCTest

extension XCTestCase {
    /// Polls `condition` every 10 ms for up to `seconds` (the presenter works
    /// on its own thread: nothing here needs the main loop).
    func waitFor(_ what: String, seconds: Double = 30, _ condition: () -> Bool) throws {
        let deadline = g_get_monotonic_time() + gint64(seconds * 1_000_000)
        while !condition() {
            if g_get_monotonic_time() > deadline { throw TimedOut(what: what) }
            g_usleep(10_000)
        }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting: \(what)" }
}

/// A value shared with the presenter thread.
final class Box<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
