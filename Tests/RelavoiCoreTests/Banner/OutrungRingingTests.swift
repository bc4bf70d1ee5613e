import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// Cinnamon shows one popup at a time and a critical one holds it: a call that
/// starts ringing outrings the others, a ringing one goes normal in place, once,
/// and never rings again; a live one goes without its running timer and sends
/// no ticks until no call rings; either way Cinnamon's 4 s timer hands the popup on.
@Suite struct OutrungRingingTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000.25)

    func ringing(_ session: String) -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: session, proxyNumber: "+1555", startedAt: t0),
            verified: true, label: session, phase: .ringing)
    }

    let cinnamon = NotificationServerProfile(
        name: "cinnamon", vendor: "GNOME", version: "5.6.8",
        capabilities: ["actions", "body", "body-markup", "persistence", "sound"])
    let gnome = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "43.9", capabilities: ["actions", "body", "persistence"])

    /// The keys presented, with whether each snapshot was outrung.
    static func presented(_ actions: [BannerMachine.Action]) -> [String: Bool] {
        var result: [String: Bool] = [:]
        for case .present(let key, let snapshot) in actions { result[key] = snapshot.outrung }
        return result
    }

    @Test func aNewRingingCallOutringsTheOthersOnceAndARingingOneStaysSoUntilAnswered() {
        var machine = BannerMachine()
        #expect(Self.presented(machine.show(ringing("a"), key: "a", now: t0)) == ["a": false])
        #expect(
            Self.presented(machine.show(ringing("b"), key: "b", now: t0)) == ["b": false, "a": true],
            "b rings: a is shown again, outrung")
        #expect(
            Self.presented(machine.update(key: "a", elapsedSeconds: nil, verified: false, label: "A", now: t0))
                == ["a": true], "an update keeps it")
        #expect(Self.presented(machine.show(ringing("b"), key: "b", now: t0)) == ["b": false], "b again: no rival")
        #expect(
            Self.presented(machine.show(ringing("a"), key: "a", now: t0)) == ["a": true],
            "a shown again while it rings stays outrung and outrings nobody")
        _ = machine.close(key: "b")
        #expect(machine.banners["a"]?.outrung == true, "b gone: a is not raised again")
        let answered = machine.answer(key: "a", startedAt: t0, now: t0)
        #expect(Self.presented(answered) == ["a": false], "live: no longer ringing")
        #expect(
            Self.presented(machine.show(ringing("c"), key: "c", now: t0)) == ["c": false, "a": true],
            "outrung anew as a live call")
    }

    @Test func onCinnamonOnlyTheNewestRingingCallIsCriticalAndTheOutrungOneUpdatesQuietly() {
        var first = ringing("a").snapshot(at: t0)
        let renderer = BannerRenderer(profile: cinnamon)
        let rang = renderer.render(first, previous: nil, rings: true)
        #expect(rang.urgency == .critical)
        first.outrung = true
        let yielded = renderer.render(first, previous: ringing("a").snapshot(at: t0))
        #expect(yielded.urgency == .normal, "outrung: normal, its hide timer hands the popup on")
        #expect(yielded.soundName == nil && yielded.suppressSound, "never a second ring")
        #expect(yielded.body == rang.body && yielded.summary == rang.summary, "the same words")
        #expect(renderer.serverView.yieldsToNewerRinging)
        let ringThrough = BannerRenderer(profile: cinnamon, doNotDisturb: true, ringThroughDoNotDisturb: true)
        #expect(ringThrough.render(first, previous: nil).urgency == .critical, "Do Not Disturb rings through as before")
        #expect(!BannerRenderer(profile: gnome).serverView.yieldsToNewerRinging)
    }

    @Test func theOutrungCallIsPostedAgainOnlyWhereItIsRenderedOtherwise() {
        for (profile, posted) in [(cinnamon, true), (gnome, false)] {
            var machine = BannerPostingMachine(serverView: BannerRenderer(profile: profile).serverView)
            machine.serverAppeared(restarted: false)
            _ = machine.show(ringing("a"), key: "a", rings: true, now: t0)
            let posts = machine.show(ringing("b"), key: "b", rings: true, now: t0).compactMap { action in
                if case .present(let key, let snapshot, let previous, let rings) = action {
                    return "\(key) outrung:\(snapshot.outrung) pops:\(previous == nil) rings:\(rings)"
                }
                return nil
            }
            let expected =
                ["b outrung:false pops:true rings:true"] + (posted ? ["a outrung:true pops:false rings:false"] : [])
            #expect(posts == expected, "\(profile.name)")
        }
    }

    func live(_ session: String) -> Banner {
        Banner(
            attributes: RelavoiCallAttributes(sessionId: session, proxyNumber: "+1555", startedAt: t0),
            verified: true, label: session, phase: .active)
    }

    @Test func aLiveCallIsOutrungUntilNoCallRings() {
        var machine = BannerMachine()
        _ = machine.show(live("a"), key: "a", now: t0)
        #expect(Self.presented(machine.show(ringing("b"), key: "b", now: t0)) == ["b": false, "a": true])
        #expect(Self.presented(machine.tick(now: t0 + 3)) == ["a": true], "it ticks, outrung")
        #expect(Self.presented(machine.show(ringing("c"), key: "c", now: t0 + 4)) == ["c": false, "b": true])
        #expect(
            Self.presented(machine.answer(key: "b", startedAt: t0 + 5, now: t0 + 5)) == ["b": true],
            "answered while c rings: outrung as a live call at once")
        #expect(machine.banners["a"]?.outrung == true, "c still rings")
        let missed = machine.end(key: "c", policy: .default, now: t0 + 6)
        #expect(Self.presented(missed) == ["c": false, "a": false, "b": false], "no call rings: shown as before")
        _ = machine.show(ringing("d"), key: "d", now: t0 + 7)
        #expect(machine.banners["a"]?.outrung == true && machine.banners["b"]?.outrung == true)
        _ = machine.dismiss(key: "d")
        #expect(machine.banners["a"]?.outrung == false, "the ringing call dismissed: released too")
        #expect(Self.presented(machine.tick(now: t0 + 9))["a"] == false, "shown from its next tick")
    }

    @Test func onCinnamonAnOutrungLiveCallShowsNoRunningTimerAndSendsNoTicks() {
        var snapshot = live("a").snapshot(at: t0 + 37)
        let renderer = BannerRenderer(profile: cinnamon)
        #expect(renderer.render(snapshot, previous: nil).body.contains("00:37"))
        snapshot.outrung = true
        let outrung = renderer.render(snapshot, previous: live("a").snapshot(at: t0 + 37))
        #expect(!outrung.body.contains("00:37") && outrung.body.contains("+1555"), "no running timer: \(outrung.body)")
        #expect(outrung.urgency == .normal && outrung.suppressSound)
        #expect(BannerRenderer(profile: gnome).render(snapshot, previous: nil).body.contains("00:37"), "elsewhere")
        #expect(
            BannerRenderer(profile: cinnamon, doNotDisturb: true).render(snapshot, previous: nil).body.contains(
                "00:37"),
            "Do Not Disturb: no popup to pass on")

        var machine = BannerPostingMachine(serverView: renderer.serverView)
        machine.serverAppeared(restarted: false)
        _ = machine.show(live("a"), key: "a", now: t0 + 30)
        #expect(machine.show(ringing("b"), key: "b", rings: true, now: t0 + 30.5).count == 2, "b, and a outrung")
        #expect(machine.tick(now: t0 + 32) == [], "no ticks while b rings")
        #expect(
            machine.nextWake(after: t0 + 32.2, secondsWanted: false).map { $0 > t0 + 34 } == true,
            "and no wake each second for them")
        #expect(machine.nextWake(after: t0 + 32.2, secondsWanted: true) == t0 + 33, "the tray's seconds still wake it")
        let answered = machine.show(live("b"), key: "b", now: t0 + 33)
        let keys = answered.compactMap { action -> String? in
            if case .present(let key, let snapshot, _, _) = action { return "\(key):\(snapshot.outrung)" }
            return nil
        }
        #expect(keys == ["b:false", "a:false"], "b answered: a ticks again")
        #expect(machine.tick(now: t0 + 34).count == 2, "both tick")
    }
}
