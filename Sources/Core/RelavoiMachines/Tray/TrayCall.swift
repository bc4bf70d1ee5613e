import FoundationEssentials
import RelavoiCore

/// One call as the panel item shows it: what the agent's `Calls` property
/// carries (display texts already cleaned by `BannerText`), and nothing else.
public struct TrayCall: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable {
        case ringing, live, ended, missed
    }

    public var sessionId: String
    public var label: String
    public var proxyNumber: String
    public var badge: VerificationBadge
    public var phase: Phase
    public var rangAt: Date?
    /// When it was answered: the live timer counts from here.
    public var answeredAt: Date?
    public var endedAt: Date?
    /// The final duration once ended, else 0.
    public var durationSeconds: Int

    public init(
        sessionId: String, label: String, proxyNumber: String, badge: VerificationBadge, phase: Phase,
        rangAt: Date? = nil, answeredAt: Date? = nil, endedAt: Date? = nil, durationSeconds: Int = 0
    ) {
        self.sessionId = sessionId
        self.label = label
        self.proxyNumber = proxyNumber
        self.badge = badge
        self.phase = phase
        self.rangAt = rangAt
        self.answeredAt = answeredAt
        self.endedAt = endedAt
        self.durationSeconds = durationSeconds
    }

    /// The label, or the banners' words for a call without one.
    public func displayLabel(_ phrases: TrayPhrases) -> String {
        label.isEmpty ? phrases.banner.callFallbackLabel : label
    }

    /// The timer's text at `now`: "Ringing…", the running "mm:ss", "Ended 01:02", "Missed".
    public func timerText(at now: Date, _ phrases: TrayPhrases) -> String {
        switch phase {
        case .ringing: return phrases.ringing
        case .live: return BannerText.duration(answeredAt.map { Banner.elapsed(from: $0, to: now) } ?? 0)
        case .ended: return BannerPhrases.fill(phrases.ended, with: BannerText.duration(durationSeconds))
        case .missed: return phrases.missed
        }
    }
}
