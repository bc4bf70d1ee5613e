/// The deadline of a test's wait on the loop (`LoopWait.until`), which a pause of
/// the whole process does not use up. The loop turns at least every 50 ms, so
/// more than `stallThreshold` between two checks means the waiting thread did
/// not run: the process was stopped or starved (a frozen or overloaded
/// machine: CI once showed 97 s), or something the loop ran blocked it. The
/// deadline then moves out by that pause, by `stallAllowance` at most in all,
/// so a wait on something that never comes still ends. A test that must see
/// a blocked loop measures the loop's own beats (HungServerTests does).
public struct WaitDeadline {
    public static let stallThreshold = 5.0
    public static let stallAllowance = 120.0

    private var deadline: Double
    private var lastCheck: Double
    /// How far the deadline moved out for pauses so far.
    public private(set) var pausedSeconds = 0.0

    /// - Parameters: `now` and every later `now` in seconds of one monotonic clock.
    public init(timeout: Double, now: Double) {
        deadline = now + timeout
        lastCheck = now
    }

    public mutating func hasPassed(now: Double) -> Bool {
        let pause = now - lastCheck
        lastCheck = now
        if pause > Self.stallThreshold {
            let credit = min(pause, Self.stallAllowance - pausedSeconds)
            deadline += credit
            pausedSeconds += credit
        }
        return now >= deadline
    }
}
