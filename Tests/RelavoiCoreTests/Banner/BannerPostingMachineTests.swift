import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// What is posted of the banners: nothing before a server is known, no
/// snapshot twice, everything anew for a new server, the ringing sound once.
@Suite struct BannerPostingMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)

    func banner(_ phase: Banner.Phase, label: String = "Rider") -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: "s1", proxyNumber: "+1555", startedAt: t0),
            verified: true, label: label, phase: phase)
    }

    let budgie = NotificationServerProfile(
        name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: "10.9.2",
        capabilities: ["actions", "body"])

    /// A machine whose server is known, showing banners as `view` says.
    func known(_ view: BannerServerView = BannerRenderer(profile: .unknown).serverView) -> BannerPostingMachine {
        var machine = BannerPostingMachine(serverView: view)
        machine.serverAppeared(restarted: false)
        return machine
    }

    /// The posts' (previous, rings), in order.
    static func posts(_ actions: [BannerPostingMachine.Action]) -> [Post] {
        actions.compactMap { action in
            guard case .present(let key, let snapshot, let previous, let rings) = action else { return nil }
            return Post(key: key, kind: snapshot.kind, seconds: snapshot.seconds, pops: previous == nil, rings: rings)
        }
    }

    /// Banner "k" posted ringing.
    static func ringing(pops: Bool, rings: Bool) -> [Post] {
        [Post(key: "k", kind: .ringing, seconds: 0, pops: pops, rings: rings)]
    }

    struct Post: Equatable {
        var key: String
        var kind: BannerSnapshot.Kind
        var seconds: Int
        var pops: Bool
        var rings: Bool
    }

    @Test func nothingIsPostedBeforeTheServerIsKnownThenEveryBannerPopsAndRings() {
        var machine = BannerPostingMachine(serverView: BannerRenderer(profile: .unknown).serverView)
        #expect(machine.show(banner(.ringing), key: "k", rings: true, now: t0) == [])
        #expect(machine.rerender(now: t0) == [], "a settings change before the server: still nothing")
        machine.serverAppeared(restarted: false)
        #expect(
            Self.posts(machine.rerender(now: t0)) == Self.ringing(pops: true, rings: true))
    }

    @Test func theRingIsNamedOnceAcrossRerendersShowsAndAServerRestart() {
        var machine = known()
        #expect(
            Self.posts(machine.show(banner(.ringing), key: "k", rings: true, now: t0))
                == Self.ringing(pops: true, rings: true))
        #expect(
            Self.posts(machine.rerender(now: t0)) == Self.ringing(pops: false, rings: false),
            "Do Not Disturb or the settings changed: a quiet update")
        #expect(
            Self.posts(machine.show(banner(.ringing, label: "Driver"), key: "k", now: t0))
                == Self.ringing(pops: false, rings: false))
        // A new server mid-ring: the banner pops there again, without the sound.
        machine.serverAppeared(restarted: true)
        #expect(
            Self.posts(machine.rerender(now: t0)) == Self.ringing(pops: true, rings: false))
    }

    @Test func aBannerShownOtherThanRingingDropsItsRing() {
        var machine = BannerPostingMachine(serverView: BannerRenderer(profile: .unknown).serverView)
        _ = machine.show(banner(.ringing), key: "k", rings: true, now: t0)
        _ = machine.show(banner(.active), key: "k", now: t0)
        _ = machine.show(banner(.ringing), key: "k", now: t0)
        machine.serverAppeared(restarted: false)
        #expect(Self.posts(machine.rerender(now: t0)).map(\.rings) == [false])
    }

    @Test func aRemovedBannerForgetsItsRingAndWhatTheServerHad() {
        var machine = BannerPostingMachine(serverView: BannerRenderer(profile: .unknown).serverView)
        _ = machine.show(banner(.ringing), key: "k", rings: true, now: t0)
        #expect(machine.close(key: "k") == [.close(key: "k"), .removed(key: "k", byUser: false)])
        machine.serverAppeared(restarted: false)
        #expect(
            Self.posts(machine.show(banner(.ringing), key: "k", now: t0)) == Self.ringing(pops: true, rings: false))
        _ = machine.close(key: "k")
        #expect(Self.posts(machine.show(banner(.ringing), key: "k", now: t0)).map(\.pops) == [true])
    }

    @Test func anUnchangedSnapshotIsNotPostedAgain() {
        var machine = known()
        let first = machine.show(banner(.active), key: "k", now: t0)
        #expect(Self.posts(first) == [Post(key: "k", kind: .active, seconds: 0, pops: true, rings: false)])
        #expect(machine.tick(now: t0 + 0.5) == [], "the same second")
        #expect(machine.update(key: "k", elapsedSeconds: nil, verified: true, label: "Rider", now: t0 + 0.6) == [])
        let next = machine.tick(now: t0 + 1.01)
        guard case .present(_, let snapshot, let previous, false) = next.first, next.count == 1 else {
            Issue.record("the next second is posted: \(next)")
            return
        }
        #expect(snapshot.seconds == 1 && previous?.seconds == 0, "rendered as a change from what the server has")
    }

    @Test func aNewServerGetsEveryBannerAnewTheSameOneUpdatesQuietly() {
        var machine = known()
        _ = machine.show(banner(.active), key: "b", now: t0)
        _ = machine.show(banner(.ringing), key: "a", rings: true, now: t0)
        machine.serverAppeared(restarted: false)
        #expect(Self.posts(machine.rerender(now: t0 + 2)).map(\.pops) == [false, false])
        machine.serverAppeared(restarted: true)
        #expect(
            Self.posts(machine.rerender(now: t0 + 2)) == [
                Post(key: "a", kind: .ringing, seconds: 0, pops: true, rings: false),
                Post(key: "b", kind: .active, seconds: 2, pops: true, rings: false),
            ])
        #expect(machine.tick(now: t0 + 2.5) == [], "what the new server was sent counts")
    }

    @Test func aBannerShownEndedIsPostedOnceAsEnded() {
        var machine = known()
        let actions = machine.showEnded(banner(.active), key: "k", policy: .default, durationSeconds: 7, now: t0)
        #expect(Self.posts(actions) == [Post(key: "k", kind: .ended, seconds: 7, pops: true, rings: false)])
    }

    @Test func anExpiryOfACallLeavingTheScreenByItselfKeepsTheCall() {
        var machine = known(BannerRenderer(profile: budgie).serverView)
        _ = machine.show(banner(.active), key: "k", now: t0)
        #expect(
            machine.closedByServer(key: "k", reason: 1, listed: false, now: t0 + 6) == [
                .close(key: "k"), .keptOffScreen(key: "k"),
            ])
        #expect(machine.banners["k"] != nil)
        #expect(
            machine.closedByServer(key: "k", reason: 2, listed: false, now: t0 + 7) == [
                .close(key: "k"), .removed(key: "k", byUser: true),
            ])
        _ = machine.show(banner(.ringing), key: "r", now: t0)
        #expect(
            machine.closedByServer(key: "r", reason: 1, listed: false, now: t0 + 8) == [
                .close(key: "r"), .removed(key: "r", byUser: false),
            ], "a ringing banner does not leave by itself: its expiry ends it")
        #expect(machine.closedByServer(key: "none", reason: 1, listed: false, now: t0) == [.close(key: "none")])
    }

    /// Budgie: a live call whose popup expired is in Raven as live (the
    /// delivery machine says the server lists it), and only an expired end
    /// replaces it there, so `immediate` still shows the end (the delivery
    /// machine leaves it to the server to expire), and the banner goes with the
    /// server's expiry. A call still on screen ends at once.
    @Test func anImmediateEndOfACallTheServerListedShowsTheEnd() {
        var machine = known(BannerRenderer(profile: budgie).serverView)
        _ = machine.show(banner(.active), key: "k", now: t0)
        _ = machine.closedByServer(key: "k", reason: 1, listed: true, now: t0 + 6)
        let actions = machine.end(key: "k", policy: .immediate, durationSeconds: 40, now: t0 + 40)
        #expect(Self.posts(actions).map(\.kind) == [.ended])
        #expect(Self.posts(actions).map(\.seconds) == [40])
        #expect(actions.count == 1, "no close: it would take the end's place before it is sent")
        #expect(
            machine.closedByServer(key: "k", reason: 1, listed: false, now: t0 + 46) == [
                .close(key: "k"), .removed(key: "k", byUser: false),
            ], "gone when the server expires it")
        _ = machine.show(banner(.active), key: "on", now: t0)
        #expect(
            machine.end(key: "on", policy: .immediate, durationSeconds: 9, now: t0 + 9) == [
                .close(key: "on"), .removed(key: "on", byUser: false),
            ], "its popup is up, nothing in Raven: closed at once")
        _ = machine.show(banner(.active), key: "p", now: t0)
        _ = machine.closedByServer(key: "p", reason: 1, listed: false, now: t0 + 6)
        #expect(
            machine.end(key: "p", policy: .immediate, durationSeconds: 9, now: t0 + 9) == [
                .close(key: "p"), .removed(key: "p", byUser: false),
            ], "an expiry the server does not list: closed at once")
    }

    @Test func aCallOffScreenStaysOffAcrossRerendersUntilItsPanelGoes() {
        let plasma = NotificationServerProfile(
            name: "Plasma", vendor: "KDE", version: "6.7.4", capabilities: ["actions", "body", "body-markup"])
        var renderer = BannerRenderer(profile: plasma)
        renderer.panelShowsCalls = true
        var machine = known(renderer.serverView)
        _ = machine.show(banner(.active), key: "k", now: t0)
        _ = machine.closedByServer(key: "k", reason: 1, listed: false, now: t0 + 5)
        #expect(machine.rerender(now: t0 + 6) == [], "Do Not Disturb changed: the popup does not come back")
        renderer.ringThroughDoNotDisturb = true
        #expect(
            machine.setServerView(renderer.serverView, now: t0 + 6) == [],
            "a setting changed, the live call still leaves: the popup does not come back")
        #expect(machine.tick(now: t0 + 7.01) == [], "its ticks are not shown")
        renderer.panelShowsCalls = false
        #expect(
            Self.posts(machine.setServerView(renderer.serverView, now: t0 + 8)) == [
                Post(key: "k", kind: .active, seconds: 8, pops: false, rings: false)
            ], "the panel went: the call shows again")
        #expect(Self.posts(machine.tick(now: t0 + 9.01)).map(\.seconds) == [9], "and ticks")
    }

    /// Budgie takes the live popup down after 6 s unless keep-on-screen keeps
    /// it up: switched on mid-call, the new view alone brings the call back,
    /// and a listed expiry no longer decides its end once it is back on screen.
    @Test func aViewChangeAloneBringsBackAnOffScreenCall() {
        var renderer = BannerRenderer(profile: budgie)
        var machine = known(renderer.serverView)
        #expect(machine.serverView.leavesScreenByItself == [.active])
        _ = machine.show(banner(.active), key: "k", now: t0)
        #expect(
            machine.closedByServer(key: "k", reason: 1, listed: true, now: t0 + 6).contains(.keptOffScreen(key: "k")))
        #expect(machine.setServerView(renderer.serverView, now: t0 + 7) == [], "the same view: it stays off")
        renderer.keepOnScreen = true
        #expect(
            Self.posts(machine.setServerView(renderer.serverView, now: t0 + 8)) == [
                Post(key: "k", kind: .active, seconds: 8, pops: false, rings: false)
            ])
        #expect(
            machine.end(key: "k", policy: .immediate, durationSeconds: 9, now: t0 + 9) == [
                .close(key: "k"), .removed(key: "k", byUser: false),
            ], "on screen again: its immediate end closes it at once")
    }

    /// Which close reasons are the person's comes with the view (Cinnamon's
    /// close button sends 0).
    @Test func theViewSaysWhichCloseIsThePersons() {
        let cinnamon = NotificationServerProfile(name: "cinnamon", vendor: "GNOME", version: "6.4.10", capabilities: [])
        var machine = known()
        _ = machine.show(banner(.ringing), key: "a", now: t0)
        #expect(
            machine.closedByServer(key: "a", reason: 0, listed: false, now: t0 + 1).last
                == .removed(key: "a", byUser: false))
        _ = machine.setServerView(BannerRenderer(profile: cinnamon).serverView, now: t0 + 2)
        _ = machine.show(banner(.ringing), key: "b", now: t0 + 2)
        #expect(
            machine.closedByServer(key: "b", reason: 0, listed: false, now: t0 + 3).last
                == .removed(key: "b", byUser: true))
    }
}
