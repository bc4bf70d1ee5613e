/// When to refresh an access token: `lead` seconds (60 by default, as the
/// mobile SDKs) before it expires, but never later than half-way through a
/// short lifetime, and never sooner than `minimum`.
public enum TokenRefreshSchedule {
    public static func refreshDelay(expiresIn: Double, lead: Double = 60, minimum: Double = 1)
        -> Double
    {
        guard expiresIn.isFinite, expiresIn > 0 else { return minimum }
        let margin = min(max(lead, 0), expiresIn / 2)
        return max(minimum, expiresIn - margin)
    }
}

/// An access token with its expiry on a monotonic clock (seconds).
public struct AccessToken: Sendable, Equatable, CustomStringConvertible {
    public let value: String
    public let obtainedAt: Double
    public let expiresIn: Double

    public init(value: String, obtainedAt: Double, expiresIn: Double) {
        self.value = value
        self.obtainedAt = obtainedAt
        self.expiresIn = expiresIn
    }

    public var expiresAt: Double { obtainedAt + expiresIn }
    public var refreshAt: Double {
        obtainedAt + TokenRefreshSchedule.refreshDelay(expiresIn: expiresIn)
    }

    /// Still good for at least `margin` seconds at `now`.
    public func isUsable(at now: Double, margin: Double = 10) -> Bool {
        now + min(margin, expiresIn / 4) < expiresAt
    }

    /// Never prints the token itself.
    public var description: String { "AccessToken(expiresIn: \(Int(expiresIn)) s)" }
}
