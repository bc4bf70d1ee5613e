import FoundationEssentials

/// The words of the connection notice and of the panel's line about it, in
/// the user's language: English here; the agent builds translated ones with
/// gettext (RelavoiI18n). `%s` in the offline templates is the local time the
/// connection was lost (HH:mm), worded by the driver, which knows the zone.
public struct ConnectionHealthPhrases: Sendable {
    public var offlineSummary = "Offline since %s: calls will not show"
    public var offlineBody = "Relavoi cannot reach its server. Calls show again once it answers."
    public var refusedSummary = "Relavoi refused this computer's API key"
    public var refusedBody = "Calls cannot show. Run relavoi-agent login to set the key and secret again."
    public var notSetUpSummary = "Relavoi calls cannot show: not set up"
    public var notSetUpBody = "Run relavoi-agent login to connect this computer to Relavoi."
    /// The panel's line (title, tooltip, menu): short, and names what is lost.
    public var offlineLine = "Offline since %s: calls will not show"
    public var refusedLine = "API key refused: calls will not show"
    public var notSetUpLine = "Not set up: calls will not show"
    /// The refused and not-set-up notices' button: opens the window's Sign in page.
    public var signIn = "Sign in"

    /// The action id of that button.
    public static let signInButton = "sign-in"

    /// Offline is not urgent (it may be the network, and it passes by itself):
    /// low urgency, in the spec's category for it.
    public static let offlineCategory = "network.disconnected"

    public init() {}

    public static let english = ConnectionHealthPhrases()

    /// The notification for `notice`; `clock` words a time as HH:mm local time.
    public func notice(_ notice: ConnectionNotice, clock: (Date) -> String) -> AgentNotice {
        switch notice.kind {
        case .offline:
            return AgentNotice(
                summary: fillTime(offlineSummary, notice.since, clock), body: offlineBody,
                iconName: VerificationBadge.unavailable.iconName, urgency: .low, category: Self.offlineCategory)
        case .refused:
            return AgentNotice(summary: refusedSummary, body: refusedBody, buttons: [signInButton])
        case .notSetUp:
            return AgentNotice(summary: notSetUpSummary, body: notSetUpBody, buttons: [signInButton])
        }
    }

    /// The panel's line for `health`; nil when there is nothing to say.
    public func line(_ health: ConnectionHealth, clock: (Date) -> String) -> String? {
        guard let notice = health.notice else { return nil }
        switch notice.kind {
        case .offline: return fillTime(offlineLine, notice.since, clock)
        case .refused: return refusedLine
        case .notSetUp: return notSetUpLine
        }
    }

    private var signInButton: NotificationButton { NotificationButton(id: Self.signInButton, label: signIn) }

    private func fillTime(_ template: String, _ since: Date?, _ clock: (Date) -> String) -> String {
        BannerPhrases.fill(template, with: since.map(clock) ?? "?")
    }
}
