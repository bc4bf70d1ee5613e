/// What the banner says about who is calling. Only the server makes a
/// claim: until it answered the badge is `checking`, and a failed lookup is
/// `unavailable`, never "unverified" (the server did not say no).
public enum VerificationBadge: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Asked, not answered yet: neither check mark nor warning.
    case checking
    /// The server said yes for this session.
    case verified
    /// The server said no.
    case unverified
    /// The lookup failed or timed out: it could not be checked.
    case unavailable

    /// The server's yes or no (the SDK's `State.verified`).
    public init(verified: Bool) { self = verified ? .verified : .unverified }

    /// The badge's words in English, without a symbol (`BannerPhrases` has them in the user's language).
    public var words: String { BannerPhrases.english.words(self) }

    /// The badge as an English banner's body shows it.
    public var bannerText: String { BannerPhrases.english.bannerText(self) }

    /// The banner icon's theme name (`icons/hicolor/scalable/status/`).
    public var iconName: String { "com.relavoi.Agent-\(rawValue)" }
    /// The monochrome icon for panels.
    public var symbolicIconName: String { iconName + "-symbolic" }
}
