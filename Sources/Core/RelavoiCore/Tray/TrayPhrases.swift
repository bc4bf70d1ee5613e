/// The panel item's words in the user's language: English here; the agent
/// builds translated ones with gettext (RelavoiI18n). The badge words and a
/// label-less call's name are the banners' own (`banner`), so the item says
/// what the banner says; the timer's label and the menu's actions are the
/// item's. Templates hold one `%s` (a duration) or `%d` (a count).
public struct TrayPhrases: Sendable {
    public var banner = BannerPhrases()
    /// Why calls cannot show (the health notice's words, so both say the same).
    public var health = ConnectionHealthPhrases()
    public var ringing = "Ringing…"
    public var ended = "Ended %s"
    public var missed = "Missed"
    public var copyNumber = "Copy number"
    public var dismiss = "Dismiss"
    /// Opens the Relavoi window (the ellipsis: it opens a window, not an action).
    public var settings = "Settings…"
    /// The tooltip's title over several calls: plural forms differ by language.
    public var calls: @Sendable (Int) -> String = {
        BannerPhrases.fill($0 == 1 ? "%d Relavoi call" : "%d Relavoi calls", with: String($0))
    }

    public init() {}

    public static let english = TrayPhrases()
}
