import FoundationEssentials
import RelavoiCore

/// A banner as shown at one moment.
public struct BannerSnapshot: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Equatable, Sendable {
        case ringing, active, ended, missed, message, summary
    }
    public var kind: Kind
    public var label: String
    public var proxyNumber: String
    public var badge: VerificationBadge
    /// Elapsed seconds while active, the final duration once ended, the count of a summary.
    public var seconds: Int
    /// When a live call was answered (its timer's start); nil for the other kinds.
    public var startedAt: Date?
    /// A ringing or live call over which another call began ringing
    /// (`Banner.outrung`): where the server shows one popup
    /// (`NotificationServerRules.ringingNeedsCritical`), a ringing one goes
    /// normal and a live one without its running timer, so the popup passes on.
    public var outrung = false

    public init(
        kind: Kind, label: String, proxyNumber: String, badge: VerificationBadge, seconds: Int, startedAt: Date? = nil
    ) {
        self.startedAt = startedAt
        self.kind = kind
        self.label = label
        self.proxyNumber = proxyNumber
        self.badge = badge
        self.seconds = seconds
    }

    public init(kind: Kind, label: String, proxyNumber: String, verified: Bool, seconds: Int) {
        self.init(
            kind: kind, label: label, proxyNumber: proxyNumber, badge: VerificationBadge(verified: verified),
            seconds: seconds)
    }

    /// True when going from `previous` to this is worth the user's attention
    /// (a pop-up), false for a timer tick.
    public func isMeaningfulChange(from previous: BannerSnapshot?) -> Bool {
        guard let previous else { return true }
        return previous.kind != kind || previous.badge != badge || previous.label != label
            || previous.proxyNumber != proxyNumber
    }
}
