import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// The banners' timer wakes each second only while something shows the
/// seconds: a live banner on screen with a running timer, or the tray item.
/// Otherwise a live call wakes only for its 8-hour bound, and a tick that
/// changes nothing shown is not posted.
@Suite struct BannerSecondsShownTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)
    let gnome = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "50.5", capabilities: ["body", "body-markup", "persistence"])
    let budgie = NotificationServerProfile(
        name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: "10.9.2",
        capabilities: ["actions", "body"])

    func live() -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: "s1", proxyNumber: "+1555", startedAt: t0),
            verified: true, label: "Rider", phase: .active)
    }

    /// Banner "k" live since `t0`, on a server showing it as `view` says.
    func posting(_ view: BannerServerView = BannerRenderer(profile: .unknown).serverView) -> BannerPostingMachine {
        var machine = BannerPostingMachine(serverView: view)
        machine.serverAppeared(restarted: false)
        _ = machine.show(live(), key: "k", now: t0)
        return machine
    }

    @Test func theRendererSaysWhenTheLiveCallShowsARunningTimer() {
        var renderer = BannerRenderer(profile: gnome)
        #expect(renderer.liveShowsTimer)
        renderer.panelShowsCalls = true
        #expect(!renderer.liveShowsTimer, "the extension's pill ticks instead")
        let snapshot = live().snapshot(at: t0 + 65)
        #expect(!renderer.render(snapshot, previous: snapshot).body.contains("1:05"), "and the text has no timer")
        renderer.panelShowsCalls = false
        #expect(renderer.render(snapshot, previous: snapshot).body.contains("1:05"))
        #expect(!BannerRenderer(profile: budgie).liveShowsTimer, "ticks not sent")
    }

    @Test func aQuietLiveBannerSchedulesNoPerSecondWake() {
        let machine = posting(BannerRenderer(profile: budgie).serverView)
        #expect(
            machine.nextWake(after: t0 + 5.5, secondsWanted: false)
                == t0 + BannerLimits.maximumActive, "only its 8-hour bound")
    }

    @Test func anOnScreenTickingBannerWakesEachSecond() {
        let machine = posting(BannerRenderer(profile: gnome).serverView)
        #expect(machine.nextWake(after: t0 + 5.5, secondsWanted: false) == t0 + 6)
    }

    @Test func theTrayWantingSecondsKeepsThem() {
        var machine = posting(BannerRenderer(profile: budgie).serverView)
        #expect(machine.nextWake(after: t0 + 5.5, secondsWanted: true) == t0 + 6)
        // Off screen (Plasma's popup left with the widget): the tray's seconds still come.
        let plasma = NotificationServerProfile(
            name: "Plasma", vendor: "KDE", version: "6.7.4", capabilities: ["body", "body-markup", "persistence"])
        var renderer = BannerRenderer(profile: plasma)
        renderer.panelShowsCalls = true
        _ = machine.setServerView(renderer.serverView, now: t0 + 6)
        _ = machine.closedByServer(key: "k", reason: 1, listed: false, now: t0 + 6.2)
        #expect(machine.nextWake(after: t0 + 6.2, secondsWanted: true) == t0 + 7)
        #expect(
            machine.nextWake(after: t0 + 6.2, secondsWanted: false)
                == t0 + BannerLimits.maximumActive, "off screen, no tray: no seconds")
    }

    @Test func theEightHourBoundStillEndsAQuietBanner() {
        var machine = posting(BannerRenderer(profile: budgie).serverView)
        let bound = t0 + BannerLimits.maximumActive
        #expect(machine.nextWake(after: t0 + 1, secondsWanted: false) == bound)
        let actions = machine.tick(now: bound)
        let ended = actions.compactMap { action -> BannerSnapshot? in
            guard case .present(_, let snapshot, _, _) = action else { return nil }
            return snapshot
        }
        #expect(ended.map(\.kind) == [.ended])
        #expect(ended.first?.seconds == Int(BannerLimits.maximumActive))
        #expect(machine.banners["k"]?.isTicking == false)
    }

    @Test func whenThePanelGoesTheSecondsWakeAgain() {
        var renderer = BannerRenderer(profile: gnome)
        renderer.panelShowsCalls = true
        var machine = posting(renderer.serverView)
        #expect(machine.nextWake(after: t0 + 9.5, secondsWanted: false) == t0 + BannerLimits.maximumActive)
        renderer.panelShowsCalls = false
        let posted = machine.setServerView(renderer.serverView, now: t0 + 9.5)
        #expect(posted.count == 1, "the banner is posted again, its timer back")
        #expect(machine.nextWake(after: t0 + 9.5, secondsWanted: false) == t0 + 10)
        #expect(machine.tick(now: t0 + 10.01).count == 1, "and it ticks")
    }

    @Test func aTickThatChangesOnlyUnshownSecondsIsNotPosted() {
        var renderer = BannerRenderer(profile: gnome)
        renderer.panelShowsCalls = true
        var machine = posting(renderer.serverView)
        #expect(machine.tick(now: t0 + 3.01) == [], "the tray woke the timer; nothing to post")
        // A change a server would get is still posted, with the seconds of now.
        let badge = machine.update(key: "k", elapsedSeconds: nil, verified: false, label: "Rider", now: t0 + 3.5)
        #expect(badge.count == 1)
        #expect(machine.tick(now: t0 + 4.01) == [])
        renderer.panelShowsCalls = false
        _ = machine.setServerView(renderer.serverView, now: t0 + 4.5)
        let shown = machine.tick(now: t0 + 5.01)
        #expect(shown.count == 1, "seconds shown again: posted")
    }
}
