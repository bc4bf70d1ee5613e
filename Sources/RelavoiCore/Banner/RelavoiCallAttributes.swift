import FoundationEssentials

/// What a call banner is about, as on iOS (`ActivityAttributes` there).
public struct RelavoiCallAttributes: Codable, Hashable, Sendable {
    public typealias ContentState = State

    /// The banner's changing content, as on iOS.
    public struct State: Codable, Hashable, Sendable {
        public let elapsedSeconds: Int
        public let verified: Bool
        public let otherPartyLabel: String

        public init(elapsedSeconds: Int, verified: Bool, otherPartyLabel: String) {
            self.elapsedSeconds = elapsedSeconds
            self.verified = verified
            self.otherPartyLabel = otherPartyLabel
        }
    }

    public let sessionId: String
    public let proxyNumber: String
    public let startedAt: Date

    public init(sessionId: String, proxyNumber: String, startedAt: Date) {
        self.sessionId = sessionId
        self.proxyNumber = proxyNumber
        self.startedAt = startedAt
    }
}

/// How an ended banner leaves the screen, as iOS's `ActivityUIDismissalPolicy`.
public enum DismissPolicy: Equatable, Hashable, Sendable {
    /// Close at once (the default).
    case immediate
    /// Show the ended state, then close after at most `BannerLimits.endedLinger`.
    case `default`
    /// Show the ended state until the date (clamped to now ... now + 4 h).
    case after(Date)
}

/// The bounds iOS puts on a Live Activity, kept here too.
public enum BannerLimits {
    /// An active banner ends by itself after this long.
    public static let maximumActive: TimeInterval = 8 * 3600
    /// An ended banner stays at most this long.
    public static let endedLinger: TimeInterval = 4 * 3600
}
