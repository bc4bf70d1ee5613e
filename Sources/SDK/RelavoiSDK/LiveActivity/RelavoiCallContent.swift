import FoundationEssentials
import RelavoiCore
import RelavoiMachines

/// What a call's banner says, for a host app that draws the call in its own
/// window: the counterpart of the iOS SDK's `RelavoiCallActivityView` and
/// `RelavoiCallCompactView`. The texts are the banner's own (RelavoiCore's
/// `BannerText` and badge), so the window and the notification agree.
///
///     let content = RelavoiCallContent(attributes: attributes, state: state)
///     titleLabel.text = content.label            // "Chowdeck rider"
///     detailLabel.text = "\(content.number) · \(content.timerText)"
///     badgeImage.iconName = content.badgeIconName
public struct RelavoiCallContent: Sendable, Equatable {
    /// The other party's label as display text: control and bidi characters
    /// removed, long labels cut with an ellipsis, and a label that talks
    /// about verification in quotes, so it cannot pass for the badge.
    public let label: String
    /// The proxy number as display text.
    public let number: String
    /// The elapsed time, `mm:ss`, or `h:mm:ss` from an hour on.
    public let timerText: String
    /// Whether the server verified the call.
    public let verified: Bool
    /// The badge as the banner shows it: "Verified" or "⚠ Unverified" (the words a
    /// screen reader says; the badge icon draws the check mark).
    public let badgeText: String
    /// The badge's words without a symbol: "Verified" or "Unverified".
    public let badgeWords: String
    /// The badge icon's theme name (installed with the agent's icons).
    public let badgeIconName: String
    /// The badge's monochrome icon, for panels and compact views.
    public let badgeSymbolicIconName: String

    /// The content of `state` for the call of `attributes`.
    public init(attributes: RelavoiCallAttributes, state: RelavoiCallAttributes.State) {
        let badge = VerificationBadge(verified: state.verified)
        label = BannerText.label(state.otherPartyLabel)
        number = BannerText.number(attributes.proxyNumber)
        timerText = BannerText.duration(state.elapsedSeconds)
        verified = state.verified
        badgeText = badge.bannerText
        badgeWords = badge.words
        badgeIconName = badge.iconName
        badgeSymbolicIconName = badge.symbolicIconName
    }

    /// The timer text of a call that started at `startedAt`, as of `now`
    /// (a window that ticks on its own).
    public static func timerText(since startedAt: Date, now: Date = Date()) -> String {
        BannerText.duration(Banner.elapsed(from: startedAt, to: now))
    }
}
