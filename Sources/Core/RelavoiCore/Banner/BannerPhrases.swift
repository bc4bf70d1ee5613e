import FoundationEssentials

/// Every word a banner shows, in the user's language: English here; the
/// agent builds a translated one with gettext (RelavoiI18n) and hands it to
/// `BannerDriver`. Templates hold one `%s` (a number or a duration) or `%d`
/// (a count), so the translations are checked by `msgfmt --check`.
public struct BannerPhrases: Sendable {
    public var checking = "Checking…"
    public var verified = "Verified"
    public var unverified = "Unverified"
    public var unavailable = "Could not verify"
    public var incomingCall = "Incoming call on %s"
    public var callEnded = "Call ended, %s"
    /// After a live call's timer: when it was answered, so an entry a desktop stops
    /// redrawing (GNOME's lock screen, its message list) still says something true.
    public var sinceTime = "since %s"
    /// A moment as the person reads the clock (`14:02`); nil leaves the answer time out.
    /// Pure code has no time zone: the agent hands in GLib's local time.
    public var clockTime: @Sendable (Date) -> String? = { _ in nil }
    public var missedCall = "Missed call on %s"
    public var newSMS = "New SMS on %s"
    public var unknownNumber = "unknown number"
    public var callFallbackLabel = "Relavoi call"
    /// The `default` action's label (a click opens the call).
    public var open = "Open"
    /// "1 more active call" / "2 more active calls": plural forms differ by language.
    public var moreActiveCalls: @Sendable (Int) -> String = {
        fill($0 == 1 ? "%d more active call" : "%d more active calls", with: String($0))
    }

    public init() {}

    public static let english = BannerPhrases()

    /// The badge's words, without a symbol (the D-Bus `Calls` property, menus).
    public func words(_ badge: VerificationBadge) -> String {
        switch badge {
        case .checking: return checking
        case .verified: return verified
        case .unverified: return unverified
        case .unavailable: return unavailable
        }
    }

    /// The badge as the banner's body shows it: its words, which a screen reader says as
    /// they are (the badge icon beside them draws the check mark); only the warning keeps
    /// its sign, which screen readers say as "warning". The symbol is not translated.
    public func bannerText(_ badge: VerificationBadge) -> String {
        switch badge {
        case .checking, .verified, .unavailable: return words(badge)
        case .unverified: return "⚠ " + unverified
        }
    }

    /// `template` with its first `%s` or `%d` replaced by `value` (the
    /// template as is when it has none: a translation that dropped it).
    public static func fill(_ template: String, with value: String) -> String {
        TextTemplate.fill(template, [value])
    }
}
