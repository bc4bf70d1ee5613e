import RelavoiCore
import RelavoiGLib

extension BannerPhrases {
    /// The banner's words in the user's language (after `Localization.setUp`).
    public static func localized() -> BannerPhrases {
        var phrases = BannerPhrases()
        phrases.checking = L("Checking…")
        phrases.verified = L("Verified")
        phrases.unverified = L("Unverified")
        phrases.unavailable = L("Could not verify")
        // TRANSLATORS: %s is the masked phone number the call came in on.
        phrases.incomingCall = L("Incoming call on %s")
        // TRANSLATORS: %s is the call's duration, mm:ss or h:mm:ss.
        phrases.callEnded = L("Call ended, %s")
        // TRANSLATORS: after a live call's timer; %s is the time it was answered, e.g. 14:02.
        phrases.sinceTime = L("since %s")
        phrases.clockTime = { LocalClock.hoursMinutes($0) }
        phrases.missedCall = L("Missed call on %s")
        phrases.newSMS = L("New SMS on %s")
        phrases.unknownNumber = L("unknown number")
        phrases.callFallbackLabel = L("Relavoi call")
        // TRANSLATORS: the action of a call's banner: opens the call's page in the browser.
        phrases.open = L("Open")
        phrases.moreActiveCalls = { count in
            BannerPhrases.fill(LN("%d more active call", "%d more active calls", count), with: String(count))
        }
        return phrases
    }
}

extension TrayPhrases {
    /// The panel item's words in the user's language, with the banners' `banner` (read once).
    public static func localized(banner: BannerPhrases) -> TrayPhrases {
        var phrases = TrayPhrases()
        phrases.banner = banner
        phrases.health = .localized()
        // TRANSLATORS: the panel item's label while a call rings (short: it sits in the top bar).
        phrases.ringing = L("Ringing…")
        // TRANSLATORS: the panel item's label once a call ended; %s is its duration, mm:ss.
        phrases.ended = L("Ended %s")
        // TRANSLATORS: the panel item's label for a call nobody answered (short).
        phrases.missed = L("Missed")
        // TRANSLATORS: the panel item's menu: copies the call's proxy number.
        phrases.copyNumber = L("Copy number")
        // TRANSLATORS: the panel item's menu: closes the call's banner.
        phrases.dismiss = L("Dismiss")
        // TRANSLATORS: the panel item's menu: opens the Relavoi window on its settings.
        phrases.settings = L("Settings…")
        phrases.calls = { count in
            BannerPhrases.fill(LN("%d Relavoi call", "%d Relavoi calls", count), with: String(count))
        }
        return phrases
    }
}

extension ConnectionHealthPhrases {
    /// The health notice's and panel line's words in the user's language.
    public static func localized() -> ConnectionHealthPhrases {
        var phrases = ConnectionHealthPhrases()
        // TRANSLATORS: a notification's title; %s is the local time the connection was lost, HH:mm.
        phrases.offlineSummary = L("Offline since %s: calls will not show")
        phrases.offlineBody = L("Relavoi cannot reach its server. Calls show again once it answers.")
        // TRANSLATORS: a notification's title: the Relavoi server refused the key this computer uses.
        phrases.refusedSummary = L("Relavoi refused this computer's API key")
        // TRANSLATORS: "relavoi-agent login" is a command: keep it as is.
        phrases.refusedBody = L("Calls cannot show. Run relavoi-agent login to set the key and secret again.")
        phrases.notSetUpSummary = L("Relavoi calls cannot show: not set up")
        // TRANSLATORS: "relavoi-agent login" is a command: keep it as is.
        phrases.notSetUpBody = L("Run relavoi-agent login to connect this computer to Relavoi.")
        // TRANSLATORS: the panel item's title and menu line; %s is the local time the connection was lost, HH:mm.
        phrases.offlineLine = L("Offline since %s: calls will not show")
        // TRANSLATORS: the panel item's title and menu line.
        phrases.refusedLine = L("API key refused: calls will not show")
        // TRANSLATORS: the panel item's title and menu line.
        phrases.notSetUpLine = L("Not set up: calls will not show")
        // TRANSLATORS: a button of the refused and not-set-up notifications: opens the Relavoi window's sign-in page.
        phrases.signIn = L("Sign in")
        return phrases
    }
}
