import FoundationEssentials

/// What a call banner is about, as on iOS (`ActivityAttributes` there).
public struct RelavoiCallAttributes: Codable, Hashable, Sendable {
    /// The name iOS's `ActivityAttributes` gives the changing content.
    public typealias ContentState = State

    /// The banner's changing content, as on iOS.
    public struct State: Codable, Hashable, Sendable {
        /// Seconds since the call was answered; the banner's timer counts on from it.
        public let elapsedSeconds: Int
        /// Whether the server verified the call (the badge).
        public let verified: Bool
        /// Who the other party is, as display text for the banner's title.
        public let otherPartyLabel: String

        /// A state to push with `LiveActivityManager.update(state:)`.
        public init(elapsedSeconds: Int, verified: Bool, otherPartyLabel: String) {
            self.elapsedSeconds = elapsedSeconds
            self.verified = verified
            self.otherPartyLabel = otherPartyLabel
        }
    }

    /// The Relavoi session the call belongs to.
    public let sessionId: String
    /// The proxy number the call is on.
    public let proxyNumber: String
    /// When the call was answered: the timer's zero.
    public let startedAt: Date

    /// The attributes of one call (`LiveActivityManager.start` makes them).
    public init(sessionId: String, proxyNumber: String, startedAt: Date) {
        self.sessionId = sessionId
        self.proxyNumber = proxyNumber
        self.startedAt = startedAt
    }
}
