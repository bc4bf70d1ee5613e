import CGLib
import RelavoiCore
import RelavoiGLib
import XCTest

extension XCTestCase {
    /// Polls `condition` every 10 ms for up to `seconds` (the delivery driver works
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

/// A value shared with the delivery thread.
final class Box<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

/// A call's banner as the delivery driver tests post it: ringing, then live.
enum BannerContents {
    static let ringing = NotificationContent(
        summary: "Rider", body: "Incoming call on +1 555", iconName: "com.relavoi.Agent-verified",
        category: "call.incoming", urgency: .critical, resident: true, expireTimeout: 0,
        soundName: "phone-incoming-call")

    /// The live call at `second` seconds: a low-urgency update of the same notification.
    static func live(_ second: Int) -> NotificationContent {
        var content = ringing
        content.body = "+1 555 · 00:\(second < 10 ? "0" : "")\(second)"
        content.category = "call"
        content.urgency = .low
        content.soundName = nil
        content.suppressSound = true
        content.transient = true
        content.defaultAction = "Open call"
        return content
    }
}
