import RelavoiStream

/// Seconds on a clock that never jumps back and keeps counting during
/// suspend (`ContinuousClock` is CLOCK_BOOTTIME on Linux), so a token's
/// expiry and a socket's silence are right after the laptop slept.
enum MonotonicClock {
    private static let origin = ContinuousClock.now

    static func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
