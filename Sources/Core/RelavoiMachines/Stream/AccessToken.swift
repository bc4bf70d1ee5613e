import RelavoiCore

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
