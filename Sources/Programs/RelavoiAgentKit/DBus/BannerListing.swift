import FoundationEssentials
import RelavoiCore

/// One call as the agent shows it: a row of `List()` and an entry of the
/// `Calls` property. Only what the banner shows: no key, token or metadata.
public struct BannerListing: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable, CaseIterable {
        case ringing, active, ended, missed

        /// The name in the `Calls` property and `ctl list`.
        public var callsName: String { self == .active ? "live" : rawValue }
    }

    public var sessionId: String
    public var proxyNumber: String
    public var label: String
    public var badge: VerificationBadge
    public var elapsedSeconds: Int
    public var phase: Phase
    /// When it started ringing, was answered, ended (nil: not known or not yet).
    public var rangAt: Date?
    public var answeredAt: Date?
    public var endedAt: Date?
    /// The final duration once ended, else 0.
    public var durationSeconds: Int
    /// `Open` would open a page for it (`open-url` is set and can be built).
    public var canOpen = false

    public init(
        sessionId: String, proxyNumber: String, label: String, badge: VerificationBadge, elapsedSeconds: Int,
        phase: Phase, rangAt: Date? = nil, answeredAt: Date? = nil, endedAt: Date? = nil, durationSeconds: Int = 0
    ) {
        self.sessionId = sessionId
        self.proxyNumber = proxyNumber
        self.label = label
        self.badge = badge
        self.elapsedSeconds = elapsedSeconds
        self.phase = phase
        self.rangAt = rangAt
        self.answeredAt = answeredAt
        self.endedAt = endedAt
        self.durationSeconds = durationSeconds
    }

    public init(
        sessionId: String, proxyNumber: String, label: String, verified: Bool, elapsedSeconds: Int, phase: Phase
    ) {
        self.init(
            sessionId: sessionId, proxyNumber: proxyNumber, label: label, badge: VerificationBadge(verified: verified),
            elapsedSeconds: elapsedSeconds, phase: phase)
    }

    /// The server's yes (`List()`'s boolean).
    public var verified: Bool {
        get { badge == .verified }
        set { badge = VerificationBadge(verified: newValue) }
    }

    /// The same call without the ticking count: what `PropertiesChanged` compares.
    public var withoutElapsed: BannerListing {
        var copy = self
        copy.elapsedSeconds = 0
        return copy
    }
}
