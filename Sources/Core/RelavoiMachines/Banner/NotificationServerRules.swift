/// Every per-server quirk the renderer and the delivery driver apply, in one
/// place, by server family and version (seen on the headless servers of
/// docs/servers.md: GNOME Shell 43.9, 48.7, 50.5 and 51.0, Plasma 5.27, 6.3
/// and 6.7.4, xfce4-notifyd 0.7.3, notification-daemon 3.20, dunst 1.9.0;
/// each rule says where), on Cinnamon 5.6.8 and 6.4.10, Budgie 10.7.1 and 10.9.2, mako 1.7.1 and
/// swaync 0.7.3 (headless, December 2026), and on cosmic-notifications as read
/// from its source (`Seen` says which servers were run and which were only read).
public struct NotificationServerRules: Equatable, Sendable {
    /// What a server does with a call's notifications, as facts with where they
    /// come from. The delivery driver does not branch on these: they say which of the
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
        /// The `NotificationClosed` reason a person's close button sends (the
        /// spec's is 2).
        public var userDismissalReason: UInt32?
        /// After `CloseNotification` the server also sends reason 2, as if the
        /// person had dismissed it (the agent has forgotten the id by then).
        public var closeAlsoSignalsDismissal: Bool?
        /// What the desktop's tray shows of the agent's StatusNotifierItem.
        public var trayShows: String?
        /// What its Do Not Disturb did to a call, where it was checked.
        public var doNotDisturb: String?
    }

    public enum Ticks: Equatable, Sendable {
        /// At low urgency: GNOME re-pops a banner on every normal-urgency update
        /// (seen on 43.9, 48.7, 50.5, 51.0).
        case lowUrgency
        /// `transient`: xfce4-notifyd writes a history entry per change otherwise.
        case transient
        /// Plain in-place updates (KDE: seen on 5.27, 6.3, 6.7.4; dunst; others;
        /// the delivery driver never sends identical content, which Plasma rejects).
        case plain
        /// None: the server slides a popup's whole content in again on every
        /// update (Budgie 10.7.1 and 10.9.2: popup.vala `replace` adds the new
        /// content to a Gtk.Stack with SLIDE_LEFT; recorded at 20 frames a
        /// second, 200 ms of motion every second), so the live call's text has
        /// no running timer (its answer time stays true) and a tick sends nothing.
        case notSent
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
    /// What a screen reader must hear comes as a new notification (the old one is
    /// closed): the end of a call (ended, missed), and a ring first shown with "Checking…"
    /// once the server has answered (its badge, often its label too). Orca speaks a
    /// notification when it is shown, not when its words change (its scripts/default.py),
    /// and GNOME keeps a banner up until the person is active: seen on 43.9 with Orca 43.1
    /// and on 50.5 with Orca 51.1, an end (43) and a badge updated in place were not spoken.
    public var newNotificationToBeHeard = false
    /// The server shows the body on one line, each line break drawn as a space (GNOME Shell
    /// 43.9 and 50.5: messageList.js, the body label's `setMarkup` of the text with every
    /// `\n` replaced by `' '`): so the body's lines go joined by a comma there, not by a
    /// line break, or "…0001" and "Verified" are one phrase, read out as one too.
    public var joinsBodyLines = false
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
    /// A ringing call goes at critical urgency (not in Do Not Disturb, unless it
    /// rings through): Cinnamon hides every popup below critical
    /// `notification-duration` seconds (default 4) after its last update, whatever
    /// `expire_timeout` says, and never hides a critical one (js/ui/messageTray.js
    /// `_showNotificationCompleted` and `_updateState`, the same in 5.6.8 and
    /// 6.4.10; its 10 s timer for critical popups only checks again). A live call
    /// ticks each second, which starts the timer again; a ringing one does not.
    /// Cinnamon shows one popup at a time, its queue sorted by urgency, and a
    /// critical one holds it (a ticking one too): only the newest ringing call is
    /// critical; a call another call outrang (`BannerSnapshot.outrung`) goes in
    /// place normal if ringing, without its running timer and ticks if live
    /// (until no call rings), so its hide timer hands the popup on 4 s later.
    public var ringingNeedsCritical = false
    /// Seconds a banner needs after popping up before the next update that
    /// pops (urgency normal): GNOME Shell 43 hides a banner updated during its
    /// 200 ms slide-in while the user is active (its `_updateState` finds no
    /// hide timeout yet and takes the banner for expired; seen on 43.9). Critical updates
    /// and low-urgency ones are safe at any time. The delivery driver holds such an
    /// update back until this much time has passed since the pop; 0 elsewhere.
    public var popSettleInterval: Double
    /// The `NotificationClosed` reasons that mean the person closed it (the
    /// spec's 2; Cinnamon's close button sends 0, 5.6.8 and 6.4.10): the agent then stops
    /// showing the call, as the person asked, instead of taking the close for
    /// the server's and showing the call again.
    public var dismissalReasons: Set<Int> = [2]
    /// The desktop's own Do Not Disturb switch, where it has one the agent
    /// can read (nil: only GNOME's setting and the `Inhibited` property).
    public var doNotDisturbSwitch: DoNotDisturbSwitch?
    /// A banner whose notification the server expired (reason 1) shows again
    /// under the same id, in two `Notify` calls: Budgie puts each expired popup,
    /// and in Do Not Disturb each `Notify`, in Raven under its id and replaces
    /// that entry when the id comes again (10.7.1 and 10.9.2:
    /// src/raven/notifications_group.vala `add_notification`), so a call keeps
    /// one entry there, in its latest state. The second call is for Raven's
    /// bug: replacing the only entry of a group dismisses the group
    /// (`remove_notification`), so the new entry goes into a destroyed group
    /// and is not shown; the next one makes a new group (seen on 10.9.2).
    /// Raven takes an entry only from an expiry, never from a close, and
    /// `CloseNotification` of an id without a popup touches nothing
    /// (notifications_view.vala `on_notification_closed`, dbus.vala
    /// `CloseNotification`): so the agent never closes an end or a missed call
    /// shown under such an id but lets the server expire it (at least 6 s),
    /// and the end of a call whose live notification expired is shown even
    /// with `dismiss-policy = immediate`; else Raven keeps the call as live.
    /// Only the delivery machine reads this rule: its `closedByServer` keeps
    /// the id and says the server lists it, and the posting machine hears so.
    public var keepsExpiredIds = false
    /// Seconds the server keeps up the popup of a banner that is to stay up
    /// (`NotificationContent.keptUp`: ringing; live with keep-on-screen) after
    /// its last `Notify` (nil: until it is closed): the delivery driver shows
    /// such a banner again before then, without its sound, so a ringing call
    /// stays up for as long as it rings. Budgie (10.7.1 and 10.9.2) clamps
    /// `expire_timeout` to 6-12 s (0 too: dbus.vala) and each update starts it
    /// again; each show slides the popup in anew, so such banners go with
    /// `keptUpExpireTimeout` 12000 and are shown again every 10 s, not every 4.
    public var keptUpPopupLifetime: Double?
    /// The `expire_timeout` of a banner that is kept up: 0 (never) but where
    /// the server takes even that down (`keptUpPopupLifetime`).
    public var keptUpExpireTimeout: Int32 = 0
    /// What changes while a panel shows the calls and keep-on-screen is off
    /// (`whilePanelShowsCalls`).
    public enum WhilePanelShowsCalls: Equatable, Sendable {
        /// Nothing: the notification stays the only place with the call.
        case unchanged
        /// Plasma (its widget, com.relavoi.call): the live call leaves the
        /// screen after the answer. Plasma 6.7.4 pops low urgency too
        /// (GNOME's way: seen), and restarts a popup's hide timer on every
        /// update (NotificationPopup.qml): so a notification per phase, the
        /// live one with the server's timeout and no running timer, so that no
        /// tick is sent and its popup goes; ringing and the end are new
        /// notifications and pop. A resident popup that times out only leaves
        /// the screen; a minute or more later the server expires it (reason 1),
        /// which then keeps the call (`BannerMachine.expiredOffScreen`).
        case liveLeavesScreen
        /// GNOME (the extension owns com.relavoi.Agent.ShellIndicator: its pill
        /// and lock-screen card tick): the live call's text has no running timer
        /// ("since 14:02"), so no tick is sent; everything else keeps the
        /// server's rules (43/44: one notification, the answer pops, the one
        /// low-urgency update after it pops nothing; 45 on: a notification per
        /// phase, the live one at low urgency in the list). Each tick re-sent
        /// cost GNOME Shell 43 about 2 ms of CPU a second (docs/bench.md).
        case liveStopsTicking
    }

    /// What a panel showing the calls changes (`whilePanelShowsCalls`).
    public var liveWhilePanelShowsCalls = WhilePanelShowsCalls.unchanged
    /// The live call's notification goes with the server's timeout (set by
    /// `whilePanelShowsCalls`).
    public var liveLeavesScreen = false
    /// The live call's text has no running timer, so a tick sends nothing (set
    /// by `whilePanelShowsCalls`).
    public var liveWithoutTimer = false
    /// What the server does, and where that was learnt.
    public var seen = Seen()

    /// The rules while a panel shows the calls and keep-on-screen is off.
    public var whilePanelShowsCalls: NotificationServerRules {
        var rules = self
        switch liveWhilePanelShowsCalls {
        case .unchanged:
            return self
        case .liveLeavesScreen:
            rules.notificationPerPhase = true
            rules.liveLeavesScreen = true
        case .liveStopsTicking:
            break
        }
        rules.liveWithoutTimer = true
        return rules
    }

    /// - Parameter version: `GetServerInformation`'s version, where the facts
    ///   differ by minor version (xfce4-notifyd 0.7 and 0.9, Budgie 10.7 and 10.9).
    public init(family: NotificationServerProfile.Family, majorVersion: Int?, version: String = "") {
        switch family {
        case .gnome:
            // 43 and 44 keep the rules learnt there (a pop at answer); 45 on,
            // and an unknown version, get the ones that also work on 43.
            let legacy = (majorVersion ?? 45) < 45
            self.init(ticks: .lowUrgency)
            notificationPerPhase = !legacy
            newNotificationToBeHeard = true
            joinsBodyLines = true
            liveAtLowUrgency = !legacy
            badgeAsImageHint = !legacy
            keepOnScreenNeedsCritical = true
            popSettleInterval = 0.3
            liveWhilePanelShowsCalls = .liveStopsTicking
        case .xfce:
            self.init(ticks: .transient)
            doNotDisturbSwitch = .xfconfProperty(channel: "xfce4-notifyd", property: "/do-not-disturb")
            if version.hasPrefix("0.9") || version.hasPrefix("0.1") {
                // 0.9.7 (Debian 13): the log is log.sqlite, 3 rows a call with
                // transient ticks. In Do Not Disturb it closes every Notify at
                // once (reason 4) and keeps it in the log; `actions` stays listed;
                // critical pops through it (ring-through-dnd, a real call).
                // A click on the popup (a real call through relavoi-sandbox)
                // sends reason 2, once: the agent stops, no "Call ended".
                seen = Seen(
                    versions: ["0.9.7"], neverExpiringStaysOnScreen: true, criticalThroughDoNotDisturb: true,
                    offScreenPlace: "the notification log (one row per non-transient Notify)",
                    userDismissalReason: 2, closeAlsoSignalsDismissal: false,
                    trayShows: "xfce4-panel 4.20.4 status tray: the item's icon (ringing, then the badge), no label",
                    doNotDisturb:
                        "no popup: each Notify closed at once (reason 4), so a call sends 3 (ringing, answer, ended); "
                        + "with ring-through-dnd the critical ringing pops, and the answered call goes (reason 1)")
            } else {
                // 0.7.3: ticks transient, 3 log rows a call (ringing, the first
                // live, ended); in Do Not Disturb no popup, `actions` still listed.
                // A click on the popup sends reason 2 once (a real call).
                seen = Seen(
                    versions: ["0.7.3"], neverExpiringStaysOnScreen: true,
                    offScreenPlace: "the notification log (one row per non-transient Notify)",
                    userDismissalReason: 2, closeAlsoSignalsDismissal: false,
                    trayShows: "xfce4-panel 4.18 status tray: the item's icon (ringing, then the badge), no label",
                    doNotDisturb: "no popup, the call updated as usual, 3 log rows; the tray icon stays")
            }
        case .cinnamon:
            // 5.6.8: one popup for the whole call, ticking in place, the ended
            // state until the agent closes it. Its close button sends reason 0:
            // js/ui/messageTray.js binds `clicked` to `destroy(reason)`, which
            // gets the button, so notificationDaemon.js maps no reason.
            // 6.4.10 (Debian 13) is the same: the same binding in messageTray.js,
            // reason 0 for the ×, one popup ticking in place, reason 3 for the
            // agent's close (a demo and a real call through relavoi-sandbox).
            // Both: in Do Not Disturb (`display-notifications` off) nothing
            // pops, critical included; the call goes to the notification
            // applet's list and ticks there, and the agent's close removes it.
            // The tray is xapp-sn-watcher (2.4.2; 6.4: 2.8.8) and the
            // xapp-status applet: the icon, the tooltip and the menu, no label,
            // once the icons are in the icon theme (from a build tree's
            // IconThemePath the watcher passes a -symbolic file path, which the
            // applet does not draw).
            // It lists `sound` but reads no `sound-name` (notificationDaemon.js reads
            // only `suppress-sound`): its own "notification" sound, off by default
            // (org.cinnamon.sounds notification-enabled), plays when a popup first
            // shows, at critical urgency even with `suppress-sound`.
            // A popup below critical goes after `notification-duration` (4 s),
            // `expire_timeout` 0 too: the ringing call goes critical (seen on 5.6.8:
            // a ringing popup was gone 6.5 s after the ring; critical stays up).
            self.init(ticks: .plain)
            ringingNeedsCritical = true
            dismissalReasons = [0, 2]
            doNotDisturbSwitch = .settingsKeyOff(
                schema: "org.cinnamon.desktop.notifications", key: "display-notifications")
            let doNotDisturb =
                "display-notifications off: no popup, critical included; the call ticks in the notification "
                + "applet's list (the bell's count goes up) until the agent's close removes it"
            if (majorVersion ?? 5) >= 6 {
                seen = Seen(
                    versions: ["6.4.10"], neverExpiringStaysOnScreen: false, updateRestartsTimeout: true,
                    playsSound: false, criticalThroughDoNotDisturb: false,
                    offScreenPlace: "the panel's notification applet",
                    userDismissalReason: 0, closeAlsoSignalsDismissal: false,
                    trayShows:
                        "xapp-sn-watcher 2.8.8 makes it an XAppStatusIcon for the xapp-status applet: the icon "
                        + "(ringing, then the badge), no label; title and tooltip as a tooltip that ticks; "
                        + "the menu on a right click",
                    doNotDisturb: doNotDisturb)
            } else {
                seen = Seen(
                    versions: ["5.6.8"], neverExpiringStaysOnScreen: false, updateRestartsTimeout: true,
                    playsSound: false, criticalThroughDoNotDisturb: false,
                    offScreenPlace: "the panel's notification applet",
                    userDismissalReason: 0, closeAlsoSignalsDismissal: false,
                    trayShows:
                        "xapp-sn-watcher 2.4.2 makes it an XAppStatusIcon for the xapp-status applet: the icon "
                        + "(ringing, then the badge), no label; title and tooltip as a tooltip that ticks; "
                        + "the menu on a right click",
                    doNotDisturb: doNotDisturb)
            }
        case .budgie:
            // 10.7.1 and 10.9.2: a popup goes after at least 6 s even with
            // `expire_timeout` 0 (dbus.vala clamps it to 6-12 s), but each
            // update starts it again, so 1 Hz ticks keep the call up (a ringing
            // one, which does not tick, is shown again: `keptUpPopupLifetime`;
            // a real call ringing 15 s stayed up on both); Raven lists a
            // notification only once its popup expired, one entry per id. The
            // person's × sends reason 2 (10.7.1 twice at once: the button's
            // `clicked` and the popup's button release both emit `Closed`);
            // the agent's close gets reason 3 alone, and none for an id already
            // closed. Do Not Disturb (the Dispatcher's ToggleDoNotDisturb,
            // Raven's bell button) closes each Notify at once with reason 1 and
            // puts it in Raven; critical too, as urgency byte 2 is GLib's HIGH,
            // not the URGENT that would pass (src/lib/notification.vala).
            // Each update slides the popup's content in anew (both versions:
            // ticks `.notSent`); a live call's popup, which then does not change,
            // goes to Raven after its 6 s unless keep-on-screen keeps it up.
            self.init(ticks: .notSent)
            keepsExpiredIds = true
            keptUpPopupLifetime = 12
            keptUpExpireTimeout = 12000
            let doNotDisturb =
                "no popup: each Notify closed at once (reason 1, expired), critical too; Raven gets each, "
                + "one entry per id"
            if version.hasPrefix("10.7") {
                seen = Seen(
                    versions: ["10.7.1"], neverExpiringStaysOnScreen: false, updateRestartsTimeout: true,
                    criticalThroughDoNotDisturb: false,
                    offScreenPlace: "Raven's notification list, once the popup is gone", userDismissalReason: 2,
                    closeAlsoSignalsDismissal: false,
                    trayShows: "nothing: 10.7's tray is XEmbed only (no StatusNotifierWatcher)",
                    doNotDisturb: doNotDisturb)
            } else {
                // 10.9.2 (Debian 13): budgie-daemon is the StatusNotifierWatcher and
                // the panel's default tray applet its host.
                seen = Seen(
                    versions: ["10.9.2"], neverExpiringStaysOnScreen: false, updateRestartsTimeout: true,
                    criticalThroughDoNotDisturb: false,
                    offScreenPlace: "Raven's notification list, once the popup is gone", userDismissalReason: 2,
                    closeAlsoSignalsDismissal: false,
                    trayShows:
                        "the tray applet: the item's icon (ringing, then the badge), no label; the tooltip and "
                        + "the right-click menu tick",
                    doNotDisturb: doNotDisturb)
            }
        case .mako:
            // 1.7.1: never expires by default; a dismissed notification goes to
            // its history (`makoctl restore`), where CloseNotification does not
            // reach: a call dismissed mid-call comes back stale after it ended.
            self.init(ticks: .plain)
            seen = Seen(
                versions: ["1.7.1"], neverExpiringStaysOnScreen: true, playsSound: false,
                criticalThroughDoNotDisturb: false,
                offScreenPlace: "none while it shows; `makoctl restore` for dismissed ones", userDismissalReason: 2,
                closeAlsoSignalsDismissal: false,
                trayShows: "waybar 0.9.17 tray: the icon only (red while ringing), no label or text",
                doNotDisturb: "a user-made mode (`invisible=1`): nothing shows, critical included; kept for later")
        case .swaync:
            // 0.7.3: critical pops through Do Not Disturb, normal does not;
            // the control centre has the call as one entry updated in place.
            self.init(ticks: .plain)
            doNotDisturbSwitch = .swayNotificationCenter
            seen = Seen(
                versions: ["0.7.3"], neverExpiringStaysOnScreen: true, criticalThroughDoNotDisturb: true,
                offScreenPlace: "the control centre, one entry updated in place", userDismissalReason: 2,
                closeAlsoSignalsDismissal: true,
                trayShows: "waybar 0.9.17 tray: the icon only (red while ringing), no label or text",
                doNotDisturb: "no popup for normal urgency, the call ticks in the control centre; critical pops")
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
                offScreenPlace: "the panel's notifications applet, one entry updated in place",
                doNotDisturb: "no popup at all, critical included (src/app.rs); the applet still gets every Notify")
        case .kde:
            self.init(ticks: .plain)
            // Plasma keeps a call's popup up and updates it in place: seen on 6.7.4 with
            // Orca 51.1, the ring's answered badge and the end were not spoken.
            newNotificationToBeHeard = true
            liveWhilePanelShowsCalls = .liveLeavesScreen
        case .dunst, .other:
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
