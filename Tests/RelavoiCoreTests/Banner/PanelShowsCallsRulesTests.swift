import Testing

@testable import RelavoiCore

/// While a panel widget shows the calls (Plasma's com.relavoi.call), what a
/// Plasma server gets over a whole call: the renderer's contents carried out
/// by the delivery machine, as the `show` actions a server sees.
@Suite struct PanelShowsCallsRulesTests {
    let plasma = NotificationServerProfile(
        name: "Plasma", vendor: "KDE", version: "6.7.4",
        capabilities: ["body", "body-markup", "persistence", "actions"])
    let dunst = NotificationServerProfile(name: "dunst", vendor: "knopwob", capabilities: ["body"])

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

    @Test func onlyPlasmaHasTheRule() {
        #expect(plasma.rules.liveQuietWhilePanelShowsCalls)
        #expect(!plasma.rules.notificationPerPhase && !plasma.rules.liveLeavesScreen)
        let quiet = plasma.rules.whilePanelShowsCalls
        #expect(quiet.notificationPerPhase && quiet.liveLeavesScreen && !quiet.liveAtLowUrgency)
        for profile in [dunst, NotificationServerProfile.unknown] {
            #expect(profile.rules.whilePanelShowsCalls == profile.rules)
        }
    }
}
