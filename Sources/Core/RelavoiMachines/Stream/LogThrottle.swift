/// Lets at most `limit` lines through per `window` seconds and counts the
/// rest, so a firehose of bad frames cannot flood the journal.
public struct LogThrottle: Sendable {
    public let limit: Int
    public let window: Double
    private var windowStart = -Double.infinity
    private var emitted = 0
    private var suppressed = 0

    public init(limit: Int = 5, window: Double = 60) {
        self.limit = limit
        self.window = window
    }

    /// Whether to log now, and how many lines were suppressed since the
    /// last one that got through (to mention in it).
    public mutating func admit(now: Double) -> (log: Bool, suppressed: Int) {
        if now - windowStart >= window {
            windowStart = now
            emitted = 0
        }
        guard emitted < limit else {
            suppressed += 1
            return (false, 0)
        }
        emitted += 1
        defer { suppressed = 0 }
        return (true, suppressed)
    }
}
