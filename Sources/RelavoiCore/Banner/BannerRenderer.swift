/// Turns a banner snapshot into notification content for a given server.
///
/// The user should see the same thing everywhere: a pop-up when the call starts
/// and on meaningful changes, quiet in-place updates for the timer ticks.
public struct BannerRenderer: Sendable {
    public static let appId = "com.relavoi.Agent"
    public static let appName = "Relavoi"
    public static let verifiedIcon = "com.relavoi.Agent-verified"
    public static let unverifiedIcon = "com.relavoi.Agent-unverified"
    public static let appIcon = "com.relavoi.Agent"

    public var profile: NotificationServerProfile
    /// Keep the banner popped up for the whole call instead of quiet ticks.
    public var keepOnScreen: Bool
    /// Do Not Disturb is on; ringing breaks through only with `ringThroughDoNotDisturb`.
    public var doNotDisturb: Bool
    public var ringThroughDoNotDisturb: Bool

    public init(
        profile: NotificationServerProfile, keepOnScreen: Bool = false, doNotDisturb: Bool = false,
        ringThroughDoNotDisturb: Bool = false
    ) {
        self.profile = profile
        self.keepOnScreen = keepOnScreen
        self.doNotDisturb = doNotDisturb
        self.ringThroughDoNotDisturb = ringThroughDoNotDisturb
    }

    public func render(_ snapshot: BannerSnapshot, previous: BannerSnapshot?) -> NotificationContent {
        let meaningful = snapshot.isMeaningfulChange(from: previous)
        let summary = BannerText.label(snapshot.label)
        let badge = snapshot.verified ? "✔ Verified" : "⚠ Unverified"
        let proxy = BannerText.label(snapshot.proxyNumber, fallback: "unknown number")
        let lines: [String]
        var content = NotificationContent(
            summary: summary, body: "",
            iconName: snapshot.verified ? Self.verifiedIcon : Self.unverifiedIcon, category: "call")
        switch snapshot.kind {
        case .ringing:
            lines = ["Incoming call on \(proxy)", badge]
            content.category = "call.incoming"
            content.resident = true
            content.expireTimeout = 0
            if meaningful, !doNotDisturb || ringThroughDoNotDisturb {
                content.soundName = "phone-incoming-call"
            }
            if doNotDisturb && ringThroughDoNotDisturb { content.urgency = .critical }
        case .active:
            lines = ["\(proxy) · \(BannerText.duration(snapshot.seconds))", badge]
            content.resident = true
            content.expireTimeout = 0
        case .ended:
            lines = ["Call ended · \(BannerText.duration(snapshot.seconds))", "\(proxy) · \(badge)"]
            content.category = "call.ended"
        case .missed:
            lines = ["Missed call on \(proxy)", badge]
            content.category = "call.unanswered"
        case .message:
            lines = ["New SMS on \(proxy)"]
            content.category = "im.received"
            content.iconName = Self.appIcon
        case .summary:
            content.summary = Self.appName
            lines = [snapshot.seconds == 1 ? "1 more active call" : "\(snapshot.seconds) more active calls"]
            content.iconName = Self.appIcon
            content.resident = true
            content.expireTimeout = 0
        }
        let text = lines.joined(separator: "\n")
        content.body = profile.rendersMarkup ? BannerText.escapeMarkup(text) : text
        if profile.rendersMarkup && !snapshot.verified {
            // Markup servers get a stronger warning; the text stays the same words.
            content.body = content.body.replacingOccurrences(of: "⚠ Unverified", with: "<b>⚠ Unverified</b>")
        }
        // Only ringing makes a sound; GNOME would otherwise replay one on updates.
        content.suppressSound = content.soundName == nil
        if !meaningful && !keepOnScreen {
            applyQuietTick(to: &content)
        }
        return content
    }

    /// A timer tick must not pop up, sound or leave history.
    private func applyQuietTick(to content: inout NotificationContent) {
        switch profile.family {
        case .gnome:
            // Low urgency updates GNOME's message list without a banner.
            content.urgency = .low
        case .xfce:
            // xfce4-notifyd logs every change to its history unless transient.
            content.transient = true
        case .kde, .dunst, .other:
            break
        }
    }
}
