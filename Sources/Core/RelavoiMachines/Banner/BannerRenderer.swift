import RelavoiCore

/// Turns a banner snapshot into notification content for a given server.
///
/// The user should see the same thing everywhere: a pop-up when the call starts
/// and on meaningful changes, quiet in-place updates for the timer ticks.
public struct BannerRenderer: Sendable {
    public static let appId = "com.relavoi.Agent"
    public static let appName = "Relavoi"
    public static let appIcon = RelavoiIcon.name

    public var profile: NotificationServerProfile
    /// Keep the banner popped up for the whole call instead of quiet ticks.
    public var keepOnScreen: Bool
    /// Do Not Disturb is on; ringing breaks through only with `ringThroughDoNotDisturb`.
    public var doNotDisturb: Bool
    public var ringThroughDoNotDisturb: Bool
    /// The words, in the user's language.
    public var phrases: BannerPhrases = .english
    /// A panel shows the calls: a panel widget's `ShowingCalls`, or the GNOME
    /// extension's name owned (`NotificationServerRules.whilePanelShowsCalls`).
    public var panelShowsCalls = false

    public init(
        profile: NotificationServerProfile, keepOnScreen: Bool = false, doNotDisturb: Bool = false,
        ringThroughDoNotDisturb: Bool = false
    ) {
        self.profile = profile
        self.keepOnScreen = keepOnScreen
        self.doNotDisturb = doNotDisturb
        self.ringThroughDoNotDisturb = ringThroughDoNotDisturb
    }

    /// - Parameter rings: this is the call's first ringing `Notify`, the one
    ///   that names the ringing sound. Every other `Notify` of the call sends
    ///   `suppress-sound`: GNOME plays a named sound on every `Notify` that
    ///   names it, same id or not, so naming it twice rings twice.
    /// - Parameter opens: a click opens the call (`open-url`): ringing, live
    ///   and ended banners get the `default` action where the server has `actions`.
    public func render(_ snapshot: BannerSnapshot, previous: BannerSnapshot?, rings: Bool = false, opens: Bool = false)
        -> NotificationContent
    {
        let meaningful = snapshot.isMeaningfulChange(from: previous)
        let rules = effectiveRules
        let summary = BannerText.label(snapshot.label, fallback: phrases.callFallbackLabel)
        let badge = phrases.bannerText(snapshot.badge)
        let proxy = BannerText.label(snapshot.proxyNumber, fallback: phrases.unknownNumber)
        func fill(_ template: String, _ value: String) -> String { BannerPhrases.fill(template, with: value) }
        let lines: [String]
        // Each line is a part of the sentence: where the server draws the body on one
        // line, a comma keeps them apart, as within a line.
        let lineBreak = rules.joinsBodyLines ? ", " : "\n"
        var content = NotificationContent(
            summary: summary, body: "", iconName: snapshot.badge.iconName, category: "call")
        switch snapshot.kind {
        case .ringing:
            lines = [fill(phrases.incomingCall, proxy), badge]
            content.category = NotificationContent.ringingCategory
            content.resident = true
            content.expireTimeout = 0
            content.keptUp = true
            if rings, !doNotDisturb || ringThroughDoNotDisturb {
                content.soundName = "phone-incoming-call"
            }
            // Where the critical popup holds the one popup (Cinnamon), only the newest
            // ringing call's: an outrung one goes normal, hands it on after its hide timer.
            if doNotDisturb ? ringThroughDoNotDisturb : rules.ringingNeedsCritical && !snapshot.outrung {
                content.urgency = .critical
            }
        case .active:
            let since = snapshot.startedAt.flatMap(phrases.clockTime).map { ", " + fill(phrases.sinceTime, $0) } ?? ""
            // Outrung where one popup shows: no running timer, no ticks, so the popup passes on.
            let outrung = snapshot.outrung && yieldsToNewerRinging
            let timer = liveShowsTimer && !outrung ? ", " + BannerText.duration(snapshot.seconds) : ""
            lines = ["\(proxy)\(timer)\(since)", badge]
            content.resident = true
            content.expireTimeout = 0
            content.keptUp = keepOnScreen
        case .ended:
            lines = [fill(phrases.callEnded, BannerText.duration(snapshot.seconds)), "\(proxy), \(badge)"]
            content.category = "call.ended"
        case .missed:
            lines = [fill(phrases.missedCall, proxy), badge]
            content.category = "call.unanswered"
        case .message:
            lines = [fill(phrases.newSMS, proxy)]
            content.category = "im.received"
            content.iconName = Self.appIcon
        case .summary:
            content.summary = Self.appName
            lines = [phrases.moreActiveCalls(snapshot.seconds)]
            content.iconName = Self.appIcon
            content.resident = true
            content.expireTimeout = 0
        }
        if opens, profile.capabilities.contains("actions"), [.ringing, .active, .ended].contains(snapshot.kind) {
            content.defaultAction = phrases.open
        }
        if profile.rendersMarkup {
            var escaped = lines.map(BannerText.escapeMarkup)
            if snapshot.badge == .unverified, let last = escaped.indices.last {
                // Markup servers get a stronger warning; the text stays the same
                // words. The badge ends the last line of every kind that shows one.
                let shown = BannerText.escapeMarkup(badge)
                if escaped[last].hasSuffix(shown) {
                    escaped[last] = String(escaped[last].dropLast(shown.count)) + "<b>\(shown)</b>"
                }
            }
            content.body = escaped.joined(separator: lineBreak)
        } else {
            content.body = lines.joined(separator: lineBreak)
        }
        // Only ringing makes a sound; GNOME would otherwise replay one on updates.
        content.suppressSound = content.soundName == nil
        if rules.notificationPerPhase {
            content.identity = snapshot.kind.rawValue
        } else if rules.newNotificationToBeHeard, snapshot.kind == .ended || snapshot.kind == .missed {
            content.identity = "end"
        }
        if rules.newNotificationToBeHeard, snapshot.kind == .ringing, snapshot.badge == .checking {
            content.identity = "checking-" + content.identity
        }
        if rules.liveLeavesScreen, snapshot.kind == .active { content.expireTimeout = -1 }
        if keepOnScreen { applyKeepOnScreen(to: &content, kind: snapshot.kind) }
        if rules.liveAtLowUrgency, snapshot.kind == .active, content.urgency == .normal { content.urgency = .low }
        if !meaningful { applyQuietTick(to: &content) }
        if content.keptUp { content.expireTimeout = rules.keptUpExpireTimeout }
        return content
    }

    /// The live call's content shows a running timer. Where every update moves the popup,
    /// the popup is to leave by itself (each update would restart its hide timer), or a
    /// panel ticks instead, no running timer: the text stays true unchanged (and nothing
    /// needs to wake for its seconds).
    public var liveShowsTimer: Bool {
        let rules = effectiveRules
        return rules.ticks != .notSent && !rules.liveWithoutTimer
    }

    /// A call that another call outrang is shown otherwise (`BannerSnapshot.outrung`):
    /// where a critical ringing popup holds the one popup, outside Do Not Disturb
    /// (Cinnamon shows no popup in it).
    public var yieldsToNewerRinging: Bool { effectiveRules.ringingNeedsCritical && !doNotDisturb }

    /// The server's rules as they apply now (a panel showing the calls changes some).
    private var effectiveRules: NotificationServerRules {
        panelShowsCalls && !keepOnScreen ? profile.rules.whilePanelShowsCalls : profile.rules
    }

    /// A banner of this kind leaves the screen by itself and its call goes on: the live
    /// call while a panel shows the calls, or on a server that takes down even a
    /// never-expiring popup (Budgie: `keptUpPopupLifetime`, where the live call sends no
    /// ticks to restart it), unless keep-on-screen keeps it up there. Its expiry on the
    /// server keeps the call.
    public func leavesScreenByItself(_ kind: BannerSnapshot.Kind) -> Bool {
        kind == .active
            && (effectiveRules.liveLeavesScreen || (effectiveRules.keptUpPopupLifetime != nil && !keepOnScreen))
    }

    /// What the posting machine needs to know of this renderer: set on the
    /// machine whenever the server's profile, the settings or the panel change.
    public var serverView: BannerServerView {
        BannerServerView(
            yieldsToNewerRinging: yieldsToNewerRinging, liveShowsTimer: liveShowsTimer,
            leavesScreenByItself: Set(BannerSnapshot.Kind.allCases.filter(leavesScreenByItself)),
            dismissalReasons: profile.rules.dismissalReasons)
    }

    /// An agent notice: silent; a lasting one is resident and never expires (it is
    /// closed when its cause goes or it is answered); its buttons only where the server
    /// shows actions, its text escaped where the server renders markup.
    public func render(_ notice: AgentNotice) -> NotificationContent {
        let escape = profile.rendersMarkup ? BannerText.escapeMarkup : { $0 }
        var content = NotificationContent(
            summary: notice.summary, body: escape(notice.body), iconName: notice.iconName, category: notice.category,
            urgency: notice.urgency, resident: notice.lasting, expireTimeout: notice.lasting ? 0 : -1,
            suppressSound: true)
        if profile.capabilities.contains("actions") { content.buttons = notice.buttons }
        return content
    }

    /// The banner of a live call stays on screen. Every server but GNOME
    /// already keeps a never-expiring (`expireTimeout` 0) banner up; GNOME
    /// ignores the timeout and hides normal banners after 4 s, so the call's
    /// banner goes critical there: never hidden, updated in place without a
    /// new slide-in. Critical shows through GNOME's Do Not Disturb, so only
    /// with it off (or when ringing may break through it).
    private func applyKeepOnScreen(to content: inout NotificationContent, kind: BannerSnapshot.Kind) {
        guard profile.rules.keepOnScreenNeedsCritical, kind == .ringing || kind == .active || kind == .ended else {
            return
        }
        if !doNotDisturb || (kind == .ringing && ringThroughDoNotDisturb) {
            content.urgency = .critical
        }
    }

    /// A timer tick must not pop up, sound or leave history, with or without
    /// keep-on-screen (that setting is about the screen, not the history).
    private func applyQuietTick(to content: inout NotificationContent) {
        switch profile.rules.ticks {
        case .lowUrgency:
            // Low urgency updates GNOME's message list without a banner. A
            // critical banner (keep-on-screen) stays critical: it is on screen
            // and updates in place; dropping it to low or normal would hide it.
            if !keepOnScreen && content.urgency == .normal { content.urgency = .low }
        case .transient:
            content.transient = true
        case .plain, .notSent:
            break
        }
    }
}
