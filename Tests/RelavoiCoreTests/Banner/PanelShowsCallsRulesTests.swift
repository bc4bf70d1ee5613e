import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// While a panel widget shows the calls (Plasma's com.relavoi.call), what a
/// Plasma server gets over a whole call: the renderer's contents carried out
/// by the delivery machine, as the `show` actions a server sees.
@Suite struct PanelShowsCallsRulesTests {
    let plasma = NotificationServerProfile(
        name: "Plasma", vendor: "KDE", version: "6.7.4",
        capabilities: ["body", "body-markup", "persistence", "actions"])
    let dunst = NotificationServerProfile(name: "dunst", vendor: "knopwob", capabilities: ["body"])
    let gnome43 = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "43.9", capabilities: ["body", "body-markup", "persistence"])
    let gnome50 = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "50.5", capabilities: ["body", "body-markup", "persistence"])

    struct Shown: Equatable {
        var kind: BannerSnapshot.Kind
        var newNotification: Bool
        var urgency: NotificationContent.Urgency
        var expireTimeout: Int32 = 0
    }

    /// Ringing, answered, four ticks, ended: each `show` the server gets, and the closes.
    func call(on profile: NotificationServerProfile, panel: Bool, keepOnScreen: Bool = false) -> (
        shows: [Shown], closes: Int
    ) {
        var renderer = BannerRenderer(profile: profile, keepOnScreen: keepOnScreen)
        renderer.panelShowsCalls = panel
        var delivery = NotificationDeliveryMachine()
        var now = 100.0
        _ = delivery.serverAppeared(newServer: true, popSettleInterval: profile.popSettleInterval, now: now)
        var snapshots = [
            BannerSnapshot(kind: .ringing, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 0)
        ]
        for second in 0..<5 {
            snapshots.append(
                BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", verified: true, seconds: second))
        }
        snapshots.append(BannerSnapshot(kind: .ended, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 5))
        var shows: [Shown] = []
        var closes = 0
        var previous: BannerSnapshot?
        for (index, snapshot) in snapshots.enumerated() {
            now += 1
            let content = renderer.render(snapshot, previous: previous, rings: index == 0)
            previous = snapshot
            var pending = delivery.post(key: "call", content: content, now: now)
            while let action = pending.first {
                pending.removeFirst()
                switch action {
                case .show(let key, let shown, let newNotification, _):
                    shows.append(
                        Shown(
                            kind: snapshot.kind, newNotification: newNotification, urgency: shown.urgency,
                            expireTimeout: shown.expireTimeout))
                    pending += delivery.shown(key: key, content: shown, succeeded: true, now: now)
                case .close:
                    closes += 1
                case .adopt, .closeStray:
                    break  // only after a show the server did not answer in time
                }
            }
        }
        return (shows, closes)
    }

    @Test func onPlasmaTheLiveCallLeavesAfterTheAnswerAndTheEndPopsAnew() {
        let (shows, _) = call(on: plasma, panel: true)
        // Ringing pops and stays; the answer is a new notification that goes with
        // the server's timeout and is never updated (each update would restart its
        // popup's hide timer); the end is new and pops.
        #expect(
            shows == [
                Shown(kind: .ringing, newNotification: true, urgency: .normal, expireTimeout: 0),
                Shown(kind: .active, newNotification: true, urgency: .normal, expireTimeout: -1),
                Shown(kind: .ended, newNotification: true, urgency: .normal, expireTimeout: -1),
            ])
        var renderer = BannerRenderer(profile: plasma)
        renderer.panelShowsCalls = true
        let live = BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 7)
        #expect(renderer.render(live, previous: nil).body == "+1555\nVerified", "no running timer")
        #expect(renderer.leavesScreenByItself(.active) && !renderer.leavesScreenByItself(.ringing))
        renderer.keepOnScreen = true
        #expect(!renderer.leavesScreenByItself(.active))
    }

    @Test func withoutTheWidgetOrWithKeepOnScreenNothingChanges() {
        let before = call(on: plasma, panel: false)
        // One notification for the call in place, and the end anew (newNotificationToBeHeard).
        #expect(before.shows.filter(\.newNotification).map(\.kind) == [.ringing, .ended])
        #expect(before.shows.allSatisfy { $0.urgency == .normal })
        #expect(before.shows.filter { $0.kind == .active }.count == 5, "the live call ticks")
        #expect(call(on: plasma, panel: true, keepOnScreen: true).shows == before.shows, "keep-on-screen keeps it up")
        // Only the servers whose rules say so: dunst keeps its one notification.
        #expect(call(on: dunst, panel: true).shows == call(on: dunst, panel: false).shows)
    }

    @Test func onlyPlasmaAndGnomeHaveTheRule() {
        #expect(plasma.rules.liveWhilePanelShowsCalls == .liveLeavesScreen)
        #expect(!plasma.rules.notificationPerPhase && !plasma.rules.liveLeavesScreen && !plasma.rules.liveWithoutTimer)
        let quiet = plasma.rules.whilePanelShowsCalls
        #expect(
            quiet.notificationPerPhase && quiet.liveLeavesScreen && quiet.liveWithoutTimer && !quiet.liveAtLowUrgency)
        for gnome in [gnome43, gnome50] {
            #expect(gnome.rules.liveWhilePanelShowsCalls == .liveStopsTicking)
            var expected = gnome.rules
            expected.liveWithoutTimer = true
            #expect(gnome.rules.whilePanelShowsCalls == expected, "only the timer goes")
        }
        for profile in [dunst, NotificationServerProfile.unknown] {
            #expect(profile.rules.whilePanelShowsCalls == profile.rules)
        }
    }

    /// GNOME with the extension's pill (it owns com.relavoi.Agent.ShellIndicator): the
    /// live notification stops ticking; what pops and what is new stays as without it.
    @Test func onGnome43TheAnswerPopsAndTheLiveCallThenSendsNothing() {
        let (shows, _) = call(on: gnome43, panel: true)
        // One notification: the answer pops (normal), one low-urgency update after it
        // (the quiet tick's urgency, same words), then nothing; the end is new (heard).
        #expect(
            shows == [
                Shown(kind: .ringing, newNotification: true, urgency: .normal, expireTimeout: 0),
                Shown(kind: .active, newNotification: false, urgency: .normal, expireTimeout: 0),
                Shown(kind: .active, newNotification: false, urgency: .low, expireTimeout: 0),
                Shown(kind: .ended, newNotification: true, urgency: .normal, expireTimeout: -1),
            ])
        let before = call(on: gnome43, panel: false).shows
        #expect(before.filter { $0.kind == .active }.count == 5, "without the extension the live call ticks")
        #expect(
            call(on: gnome43, panel: true, keepOnScreen: true).shows
                == call(on: gnome43, panel: false, keepOnScreen: true).shows)
        var renderer = BannerRenderer(profile: gnome43)
        renderer.panelShowsCalls = true
        let live = BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 7)
        #expect(renderer.render(live, previous: nil).body == "+1555, Verified", "no running timer")
        #expect(!renderer.leavesScreenByItself(.active), "GNOME keeps it in the message list")
    }

    @Test func onGnome50TheLiveCallSitsInTheListWithoutTicks() {
        let (shows, _) = call(on: gnome50, panel: true)
        #expect(
            shows == [
                Shown(kind: .ringing, newNotification: true, urgency: .normal, expireTimeout: 0),
                Shown(kind: .active, newNotification: true, urgency: .low, expireTimeout: 0),
                Shown(kind: .ended, newNotification: true, urgency: .normal, expireTimeout: -1),
            ])
        #expect(call(on: gnome50, panel: false).shows.filter { $0.kind == .active }.count == 5)
        #expect(
            call(on: gnome50, panel: true, keepOnScreen: true).shows
                == call(on: gnome50, panel: false, keepOnScreen: true).shows)
    }

    /// Budgie takes a live popup down 6 s after its last Notify and the live call sends it
    /// no ticks: that expiry is the server's, and the call goes on (seen on 10.9.2, where
    /// the call had left the agent's Calls and tray and its end never showed).
    @Test func budgiesExpiryOfTheLiveCallKeepsTheCall() {
        let budgie = NotificationServerProfile(
            name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: "10.9.2",
            capabilities: ["actions", "body", "body-markup", "persistence"])
        var renderer = BannerRenderer(profile: budgie)
        #expect(renderer.leavesScreenByItself(.active))
        #expect(!renderer.leavesScreenByItself(.ringing) && !renderer.leavesScreenByItself(.ended))
        renderer.keepOnScreen = true
        #expect(
            !renderer.leavesScreenByItself(.active),
            "keep-on-screen keeps the live popup up (refreshed): switched on mid-call, it comes back")
        #expect(
            renderer.render(
                BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 5),
                previous: nil
            ).keptUp)
    }
}
