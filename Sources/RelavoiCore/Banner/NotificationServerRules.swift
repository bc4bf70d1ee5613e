/// Every per-server quirk the renderer and the presenter apply, in one
/// place, by server family and version (seen on the headless servers of
/// docs/servers.md: GNOME Shell 43.9, 48.7, 50.5 and 51.0, Plasma 5.27, 6.3
/// and 6.7.4, xfce4-notifyd 0.7.3, notification-daemon 3.20, dunst 1.9.0;
/// each rule says where), and on cosmic-notifications as read from its source
/// (`Seen` says which servers were run and which were only read).
public struct NotificationServerRules: Equatable, Sendable {
    /// What a server does with a call's notifications, as facts with where they
    /// come from. The presenter does not branch on these: they say which of the
    /// rules above the server needs, and docs/servers.md shows them. nil: not
    /// checked.
    public struct Seen: Equatable, Sendable {
        /// The versions run headless, or the commit whose source was read.
        public var versions: [String] = []
        /// `expire_timeout` 0 keeps a popup on screen at every urgency.
        public var neverExpiringStaysOnScreen: Bool?
        /// An update with the same id starts the popup's timeout again.
        public var updateRestartsTimeout: Bool?
        /// The server plays `sound-name` (whatever its capabilities say).
        public var playsSound: Bool?
        /// Critical urgency still pops while Do Not Disturb is on.
        public var criticalThroughDoNotDisturb: Bool?
        /// Where a person finds the call when no popup shows it.
        public var offScreenPlace: String?
    }

    public enum Ticks: Equatable, Sendable {
        /// At low urgency: GNOME re-pops a banner on every normal-urgency update
        /// (seen on 43.9, 48.7, 50.5, 51.0).
        case lowUrgency
        /// `transient`: xfce4-notifyd writes a history entry per change otherwise.
        case transient
        /// Plain in-place updates (KDE: seen on 5.27, 6.3, 6.7.4; dunst; others;
        /// the presenter never sends identical content, which Plasma rejects).
        case plain
    }

    public var ticks: Ticks
    /// Each phase of a call (ringing, live, ended, missed) is a notification
    /// of its own (the old one is closed), and no notification ever changes
    /// urgency. GNOME 45-48 judges an update by the urgency of the update
    /// before it (after one low update nothing pops or sounds again until the
    /// list is opened) and draws an entry blank once its urgency changed
    /// between low and normal (48.7's group handler). Seen on 48.7, 50.5 and
    /// 51.0: one ring, ringing and ended pop, the live call in the list.
    public var notificationPerPhase: Bool
    /// The live call is low urgency from its first `Notify` (with
    /// `notificationPerPhase`: readable in the list, its ticks never pop).
    public var liveAtLowUrgency: Bool
    /// The badge also goes as the `image-path` hint: GNOME 45 on draws no
    /// image for `app_icon` (48.7: an empty space), only for an image hint
    /// (the same on 50.5 and 51.0).
    public var badgeAsImageHint: Bool
    /// keep-on-screen needs critical urgency: GNOME ignores `expire_timeout`
    /// and hides normal banners after 4 s; the others keep a never-expiring one up.
    public var keepOnScreenNeedsCritical: Bool
    /// Seconds a banner needs after popping up before the next update that
    /// pops (urgency normal): GNOME Shell 43 hides a banner updated during its
    /// 200 ms slide-in while the user is active (its `_updateState` finds no
    /// hide timeout yet and takes the banner for expired; seen on 43.9). Critical updates
    /// and low-urgency ones are safe at any time. The presenter holds such an
    /// update back until this much time has passed since the pop; 0 elsewhere.
    public var popSettleInterval: Double
    /// What the server does, and where that was learnt.
    public var seen = Seen()

    public init(family: NotificationServerProfile.Family, majorVersion: Int?) {
        switch family {
        case .gnome:
            // 43 and 44 keep the rules learnt there (a pop at answer); 45 on,
            // and an unknown version, get the ones that also work on 43.
            let legacy = (majorVersion ?? 45) < 45
            self.init(ticks: .lowUrgency)
            notificationPerPhase = !legacy
            liveAtLowUrgency = !legacy
            badgeAsImageHint = !legacy
            keepOnScreenNeedsCritical = true
            popSettleInterval = 0.3
        case .xfce:
            self.init(ticks: .transient)
        case .cosmic:
            // cosmic-notifications, read at pop-os/cosmic-notifications
            // 7837e494961d (2026-07-29; the server says version 0.1.0):
            // src/app.rs `push_notification` takes `u32::try_from(expire_timeout)`
            // (-1 becomes 3000 ms) and caps it by urgency (config defaults:
            // normal 5000, low 3000, critical none), but 0 stays 0 and sets no
            // timer: a never-expiring popup stays at every urgency, critical
            // not needed (critical with -1 still goes after 3 s). The timer is
            // set once, when the id first shows: `replace_notification` swaps
            // the card in place and starts none (an update of an expired id is
            // pushed as a new popup). Every non-transient `Notify`, updates too,
            // goes to the panel's notifications applet (src/subscriptions/
            // notifications.rs), which replaces its entry by id
            // (cosmic-applets 0441c67b1056, cosmic-applet-notifications/src/lib.rs):
            // so ticks stay plain, never `transient` (the applet would keep the
            // first tick). It lists `sound` but reads no sound hint; with Do Not
            // Disturb on no popup shows at all, critical included.
            self.init(ticks: .plain)
            seen = Seen(
                versions: ["0.1.0 (source, 7837e494961d)"], neverExpiringStaysOnScreen: true,
                updateRestartsTimeout: false, playsSound: false, criticalThroughDoNotDisturb: false,
                offScreenPlace: "the panel's notifications applet, one entry updated in place")
        case .kde, .dunst, .other:
            self.init(ticks: .plain)
        }
    }

    private init(ticks: Ticks) {
        self.ticks = ticks
        notificationPerPhase = false
        liveAtLowUrgency = false
        badgeAsImageHint = false
        keepOnScreenNeedsCritical = false
        popSettleInterval = 0
    }
}
