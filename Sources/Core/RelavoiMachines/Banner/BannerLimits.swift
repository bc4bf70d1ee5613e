import FoundationEssentials

/// The bounds iOS puts on a Live Activity, kept here too.
public enum BannerLimits {
    /// An active banner ends by itself after this long.
    public static let maximumActive: TimeInterval = 8 * 3600
    /// An ended banner stays at most this long.
    public static let endedLinger: TimeInterval = 4 * 3600
}
