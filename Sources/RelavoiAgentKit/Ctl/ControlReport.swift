/// What `ctl list` and `ctl status` print, and how a failed call reads.
enum ControlReport {
    /// `session<TAB>phase<TAB>elapsed<TAB>verified|unverified<TAB>proxy<TAB>label`,
    /// each field terminal-safe (a tab in a label becomes U+FFFD too).
    static func line(_ listing: BannerListing) -> String {
        [
            TerminalText.safe(listing.sessionId), listing.phase.rawValue, String(listing.elapsedSeconds),
            listing.verified ? "verified" : "unverified", TerminalText.safe(listing.proxyNumber),
            TerminalText.safe(listing.label),
        ].joined(separator: "\t")
    }

    static func status(connected: Bool, bannerCount: Int) -> String {
        "connected: \(connected ? "yes" : "no")\nbanners: \(bannerCount)"
    }
}
