import FoundationEssentials

/// How an ended banner leaves the screen, as iOS's `ActivityUIDismissalPolicy`.
public enum DismissPolicy: Equatable, Hashable, Sendable {
    /// Close at once (the default).
    case immediate
    /// Show the ended state, then close after at most `BannerLimits.endedLinger`.
    case `default`
    /// Show the ended state until the date (clamped to now ... now + 4 h).
    case after(Date)
}
