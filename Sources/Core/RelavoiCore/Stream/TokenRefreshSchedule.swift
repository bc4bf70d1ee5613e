/// When to refresh an access token: `lead` seconds (60 by default, as the
/// mobile SDKs) before it expires, but never later than half-way through a
/// short lifetime, and never sooner than `minimum`.
public enum TokenRefreshSchedule {
    /// How long before expiry a token is refreshed unless configured otherwise.
    public static let defaultLead = 60.0

    public static func refreshDelay(expiresIn: Double, lead: Double = defaultLead, minimum: Double = 1)
        -> Double
    {
        guard expiresIn.isFinite, expiresIn > 0 else { return minimum }
        let margin = min(max(lead, 0), expiresIn / 2)
        return max(minimum, expiresIn - margin)
    }
}
