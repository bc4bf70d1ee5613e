import FoundationEssentials
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// The per-server rules of the desktops checked for issue 35, as data: which
/// family a server's `GetServerInformation` picks and what a call sends there.
@Suite struct ServerRulesSeenTests {
    /// cosmic-notifications' own answers (src/subscriptions/notifications.rs at 7837e494961d).
    let cosmic = NotificationServerProfile(
        name: "cosmic-notifications", vendor: "System76", version: "0.1.0",
        capabilities: [
            "body", "icon-static", "persistence", "actions", "action-icons", "body-markup", "body-hyperlinks", "sound",
        ])

    func call(on profile: NotificationServerProfile, keepOnScreen: Bool = false) -> [(
        kind: BannerSnapshot.Kind, content: NotificationContent
    )] {
        let renderer = BannerRenderer(profile: profile, keepOnScreen: keepOnScreen)
        var snapshots = [
            BannerSnapshot(kind: .ringing, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 0)
        ]
        for second in 0..<4 {
            snapshots.append(
                BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: second))
        }
        snapshots.append(
            BannerSnapshot(kind: .ended, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 4))
        var previous: BannerSnapshot?
        return snapshots.enumerated().map { index, snapshot in
            defer { previous = snapshot }
            return (snapshot.kind, renderer.render(snapshot, previous: previous, rings: index == 0))
        }
    }

    /// Each desktop's own Do Not Disturb switch, where the agent reads it;
    /// GNOME's and Plasma's are followed everywhere, so they name none.
    @Test(arguments: [
        (
            "cinnamon", "GNOME", "5.6.8",
            DoNotDisturbSwitch?.some(
                .settingsKeyOff(schema: "org.cinnamon.desktop.notifications", key: "display-notifications"))
        ),
        ("Xfce Notify Daemon", "Xfce", "0.9.7", .xfconfProperty(channel: "xfce4-notifyd", property: "/do-not-disturb")),
        ("Xfce Notify Daemon", "Xfce", "0.7.3", .xfconfProperty(channel: "xfce4-notifyd", property: "/do-not-disturb")),
        ("SwayNotificationCenter", "ErikReider", "0.7.3", .swayNotificationCenter),
        ("gnome-shell", "GNOME", "48.7", nil),
        ("Plasma", "KDE", "6.3.6", nil),
        ("mako", "emersion", "0.0.0", nil),
    ])
    func doNotDisturbSwitch(name: String, vendor: String, version: String, expected: DoNotDisturbSwitch?) {
        let profile = NotificationServerProfile(name: name, vendor: vendor, version: version, capabilities: [])
        #expect(profile.rules.doNotDisturbSwitch == expected)
    }

    @Test func cosmicIsKnownByItsName() {
        #expect(cosmic.family == .cosmic)
        #expect(cosmic.majorVersion == 0)
        #expect(NotificationServerProfile(name: "cosmic-notifications", capabilities: []).family == .cosmic)
    }

    @Test func cosmicKeepsTheCallUpWithATimeoutOfZeroAndPlainTicks() {
        let rules = cosmic.rules
        #expect(rules.ticks == .plain, "a transient tick would skip the panel applet")
        #expect(!rules.keepOnScreenNeedsCritical, "expire_timeout 0 stays at every urgency")
        #expect(!rules.notificationPerPhase && !rules.liveAtLowUrgency && !rules.badgeAsImageHint)
        #expect(rules.popSettleInterval == 0)
        #expect(rules.seen.neverExpiringStaysOnScreen == true)
        #expect(rules.seen.updateRestartsTimeout == false)
        #expect(rules.seen.playsSound == false, "it lists `sound` but plays none")
        #expect(rules.seen.criticalThroughDoNotDisturb == false)
        #expect(rules.seen.versions.contains { $0.contains("7837e494961d") })
        for keepOnScreen in [false, true] {
            let sent = call(on: cosmic, keepOnScreen: keepOnScreen)
            #expect(Set(sent.map(\.content.identity)) == [""], "one notification for the whole call")
            let up = sent.filter { $0.kind != .ended }.map(\.content)
            // Capped at 5 s (normal), 3 s (low) and 3 s for -1: only 0 keeps it.
            #expect(up.allSatisfy { $0.expireTimeout == 0 && $0.resident })
            #expect(up.allSatisfy { $0.urgency == .normal }, "no critical needed, none sent")
            #expect(sent.allSatisfy { !$0.content.transient })
            #expect(sent.filter { $0.content.soundName != nil }.count == 1)
        }
    }

    @Test func otherFamiliesHaveNoSeenFactsYet() {
        let plain = NotificationServerProfile(name: "something", capabilities: [])
        #expect(plain.family == .other)
        #expect(plain.rules.seen == NotificationServerRules.Seen())
    }

    /// `GetServerInformation` as each answered headless (December 2026).
    @Test(arguments: [
        ("cinnamon", "GNOME", "5.6.8", NotificationServerProfile.Family.cinnamon),
        ("cinnamon", "GNOME", "6.4.10", .cinnamon),
        ("Budgie Notification Server", "Budgie Desktop Developers", "10.7.1", .budgie),
        ("Budgie Notification Server", "Budgie Desktop Developers", "10.9.2", .budgie),
        ("mako", "emersion", "0.0.0", .mako), ("SwayNotificationCenter", "ErikReider", "0.7.3", .swaync),
        ("Xfce Notify Daemon", "Xfce", "0.7.3", .xfce), ("Xfce Notify Daemon", "Xfce", "0.9.7", .xfce),
    ])
    func seenServersAreKnownByTheirAnswers(
        name: String, vendor: String, version: String, family: NotificationServerProfile.Family
    ) {
        let profile = NotificationServerProfile(name: name, vendor: vendor, version: version, capabilities: [])
        #expect(profile.family == family)
        let rules = profile.rules
        #expect(!rules.notificationPerPhase && !rules.liveAtLowUrgency && !rules.keepOnScreenNeedsCritical)
        // Budgie slides its popup's content in again on every update: no ticks there.
        #expect(rules.ticks == (family == .xfce ? .transient : family == .budgie ? .notSent : .plain))
        #expect(!rules.seen.versions.isEmpty && rules.seen.offScreenPlace != nil && rules.seen.trayShows != nil)
        // Every one of them got one notification for the whole call, never expiring while up
        // (Budgie: the ringing call, kept up, with the longest timeout it takes).
        let sent = call(on: profile)
        #expect(Set(sent.map(\.content.identity)) == [""])
        #expect(
            sent.filter { $0.kind != .ended }.allSatisfy {
                $0.content.expireTimeout == ($0.content.keptUp ? rules.keptUpExpireTimeout : 0)
            })
    }

    /// Cinnamon's close button sends reason 0: that close is the person's there,
    /// and only there (elsewhere 0 is no reason at all).
    @Test func cinnamonsReasonZeroIsADismissalAndNowhereElse() {
        func reasons(_ name: String, _ vendor: String = "") -> Set<Int> {
            NotificationServerProfile(name: name, vendor: vendor, capabilities: []).rules.dismissalReasons
        }
        #expect(reasons("cinnamon", "GNOME") == [0, 2])
        for (name, vendor) in [
            ("dunst", ""), ("gnome-shell", "GNOME"), ("Plasma", "KDE"), ("mako", ""), ("swaync", ""),
        ] {
            #expect(reasons(name, vendor) == [2], "\(name)")
        }
    }

    @Test func whatEachServerDidIsKeptWithItsVersion() {
        func seen(_ name: String, _ vendor: String = "") -> NotificationServerRules.Seen {
            NotificationServerProfile(name: name, vendor: vendor, capabilities: []).rules.seen
        }
        let cinnamon = seen("cinnamon", "GNOME")
        #expect(cinnamon.versions == ["5.6.8"])
        #expect(cinnamon.userDismissalReason == 0, "its close button sends reason 0")
        #expect(cinnamon.criticalThroughDoNotDisturb == false)
        let cinnamon64 = NotificationServerProfile(
            name: "cinnamon", vendor: "GNOME", version: "6.4.10", capabilities: [])
        #expect(cinnamon64.family == .cinnamon && cinnamon64.rules.ticks == .plain)
        #expect(cinnamon64.rules.seen.versions == ["6.4.10"])
        #expect(cinnamon64.rules.seen.userDismissalReason == 0, "6.4's close button still sends reason 0")
        #expect(cinnamon64.rules.dismissalReasons == [0, 2])
        #expect(Set(call(on: cinnamon64).map(\.content.identity)) == [""], "one notification for the whole call")
        // Do Not Disturb and the tray, seen on both (December 2026)
        for rules in [cinnamon, cinnamon64.rules.seen] {
            #expect(rules.doNotDisturb?.contains("applet's list") == true)
            #expect(rules.offScreenPlace == "the panel's notification applet")
            #expect(rules.trayShows?.contains("no label") == true && rules.trayShows?.contains("menu") == true)
        }
        #expect(cinnamon64.rules.seen.criticalThroughDoNotDisturb == false, "6.4: critical does not pop either")
        for rules in [cinnamon, cinnamon64.rules.seen] {
            #expect(rules.neverExpiringStaysOnScreen == false, "expire_timeout 0 below critical goes after 4 s")
            #expect(rules.updateRestartsTimeout == true)
            #expect(rules.playsSound == false, "sound-name is never read")
        }
        for version in ["10.7.1", "10.9.2"] {
            let budgie = NotificationServerProfile(
                name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: version,
                capabilities: [])
            #expect(budgie.rules.seen.versions == [version])
            let facts = budgie.rules.seen
            #expect(facts.neverExpiringStaysOnScreen == false && facts.updateRestartsTimeout == true)
            #expect(facts.userDismissalReason == 2)
            #expect(facts.closeAlsoSignalsDismissal == false, "the agent's close gets reason 3 alone")
            #expect(facts.criticalThroughDoNotDisturb == false)
            #expect(facts.doNotDisturb?.contains("reason 1") == true)
            #expect(budgie.rules.keepsExpiredIds, "Raven keeps one entry per id")
            #expect(
                budgie.rules.keptUpPopupLifetime == 12 && budgie.rules.keptUpExpireTimeout == 12000,
                "expire_timeout is clamped to 6-12 s: a banner kept up takes the longest")
        }
        #expect(seen("Budgie Notification Server").versions == ["10.9.2"], "an unknown version: 10.9's facts")
        #expect(seen("Budgie Notification Server").trayShows?.contains("no label") == true)
        #expect(!seen("Budgie Notification Server").versions.isEmpty)
        #expect(
            NotificationServerProfile(name: "swaync", capabilities: []).rules.keepsExpiredIds == false,
            "only Budgie")
        #expect(NotificationServerProfile(name: "mako", capabilities: []).rules.keptUpPopupLifetime == nil)
        #expect(seen("mako", "emersion").criticalThroughDoNotDisturb == false)
        let swaync = seen("SwayNotificationCenter")
        #expect(swaync.criticalThroughDoNotDisturb == true && swaync.closeAlsoSignalsDismissal == true)
        #expect(seen("Xfce Notify Daemon", "Xfce").versions == ["0.7.3"], "an unknown version: 0.7's facts")
        #expect(seen("Xfce Notify Daemon", "Xfce").userDismissalReason == 2)
        let xfce09 = NotificationServerProfile(
            name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.9.7", capabilities: [])
        #expect(xfce09.rules.seen.versions == ["0.9.7"])
        #expect(xfce09.rules.ticks == .transient, "0.9 logs every non-transient Notify too")
        #expect(xfce09.rules.seen.doNotDisturb?.contains("reason 4") == true)
        #expect(xfce09.rules.seen.userDismissalReason == 2 && xfce09.rules.seen.closeAlsoSignalsDismissal == false)
        #expect(seen("dunst", "knopwob") == NotificationServerRules.Seen(), "not recorded here")
    }
}
