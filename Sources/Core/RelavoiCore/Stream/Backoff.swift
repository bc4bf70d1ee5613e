/// Exponential reconnect backoff: `base`, doubling, capped at `cap`, with
/// jitter that only ever shortens a delay (so the documented schedule is an
/// upper bound): each delay is in `[nominal * (1 - jitter), nominal]`.
public struct Backoff: Sendable {
    /// Returns a number in `[0, 1)`; injected so tests are deterministic.
    public typealias RandomSource = @Sendable () -> Double

    /// The stream's reconnect schedule unless configured otherwise
    /// (`RelavoiConfig`'s defaults are these).
    public static let defaultBase = 0.5
    public static let defaultCap = 30.0
    public static let defaultJitter = 0.2

    public let base: Double
    public let cap: Double
    public let jitter: Double
    public private(set) var failures = 0
    private let random: RandomSource

    public init(
        base: Double = Backoff.defaultBase, cap: Double = Backoff.defaultCap, jitter: Double = Backoff.defaultJitter,
        random: @escaping RandomSource = { Double.random(in: 0..<1) }
    ) {
        precondition(base > 0 && cap >= base, "backoff needs 0 < base <= cap")
        self.base = base
        self.cap = cap
        self.jitter = min(max(jitter, 0), 1)
        self.random = random
    }

    /// The un-jittered delay before retry number `attempt` (1-based).
    public func nominalDelay(attempt: Int) -> Double {
        guard attempt > 1 else { return base }
        // 2^63 overflows; the cap is reached long before.
        let exponent = min(attempt - 1, 62)
        return min(cap, base * Double(UInt64(1) << UInt64(exponent)))
    }

    /// Counts one more failure and returns how long to wait before retrying.
    public mutating func nextDelay() -> Double {
        failures += 1
        let nominal = nominalDelay(attempt: failures)
        let r = min(max(random(), 0), 1)
        return nominal * (1 - jitter * r)
    }

    /// After a connection that was live: start again from `base`.
    public mutating func reset() { failures = 0 }
}
