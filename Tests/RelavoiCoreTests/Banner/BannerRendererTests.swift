import FoundationEssentials
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct BannerRendererTests {
    let active = BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 61)
    /// GNOME 43's rules (45 and later: `ServerRulesOverACallTests`).
    let gnome = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "43.9",
        capabilities: ["body", "body-markup", "persistence", "sound"])
    let xfce = NotificationServerProfile(
        name: "Xfce Notify Daemon", vendor: "Xfce", capabilities: ["body", "body-markup"])
    let plain = NotificationServerProfile(name: "something", capabilities: ["body"])
    let kde = NotificationServerProfile(
        name: "Plasma", vendor: "KDE", capabilities: ["body", "body-markup", "persistence"])
    let dunst = NotificationServerProfile(name: "dunst", vendor: "knopwob", capabilities: ["body", "body-markup"])
    let ringing = BannerSnapshot(
        kind: .ringing, label: "Relavoi call", proxyNumber: "+1555", verified: false, seconds: 0)
    let ended = BannerSnapshot(kind: .ended, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 62)

    @Test func firstShowPopsAtNormalUrgencyWithCallHints() {
        let content = BannerRenderer(profile: gnome).render(active, previous: nil)
        #expect(content.summary == "Rider")
        #expect(content.body == "+1555, 01:01, Verified", "GNOME draws the body on one line")
        #expect(content.iconName == "com.relavoi.Agent-verified")
        #expect(content.category == "call")
        #expect(content.urgency == .normal)
        #expect(content.resident)
        #expect(content.expireTimeout == 0)
        #expect(content.soundName == nil && content.suppressSound)
    }

    @Test func aLiveBodyNamesTheAnswerTimeWhenAClockIsHandedIn() {
        var live = active
        live.startedAt = Date(timeIntervalSince1970: 1_800_000_000)
        var renderer = BannerRenderer(profile: dunst)
        #expect(renderer.render(live, previous: nil).body == "+1555, 01:01\nVerified", "no clock: no answer time")
        renderer.phrases.clockTime = { $0.timeIntervalSince1970 == 1_800_000_000 ? "14:02" : "?" }
        #expect(renderer.render(live, previous: nil).body == "+1555, 01:01, since 14:02\nVerified")
        #expect(renderer.render(ended, previous: nil).body.contains("since") == false, "only a live call")
    }

    @Test func agentNoticesAreSilentLastingAndOfferTheirButtonsWhereActionsShow() {
        let question = AgentNotice(
            summary: "Ask?", body: "a <b>", buttons: [NotificationButton(id: "yes", label: "Yes")])
        let withActions = NotificationServerProfile(name: "x", capabilities: ["body", "body-markup", "actions"])
        let content = BannerRenderer(profile: withActions).render(question)
        #expect(content.body == "a &lt;b&gt;")
        #expect(content.actionList == ["yes", "Yes"])
        #expect(content.resident && content.expireTimeout == 0 && content.suppressSound && content.soundName == nil)
        #expect(BannerRenderer(profile: plain).render(question).actionList == [], "no actions capability")
        var passing = question
        passing.lasting = false
        #expect(BannerRenderer(profile: plain).render(passing).expireTimeout == -1)
    }

    @Test func gnomeTicksAreLowUrgencySoTheyDoNotPopUp() {
        var next = active
        next.seconds = 62
        #expect(BannerRenderer(profile: gnome).render(next, previous: active).urgency == .low)
        #expect(BannerRenderer(profile: gnome, keepOnScreen: true).render(next, previous: active).urgency == .critical)
    }

    @Test func xfceTicksAreTransientSoTheyLeaveNoHistory() {
        var next = active
        next.seconds = 62
        let tick = BannerRenderer(profile: xfce).render(next, previous: active)
        #expect(tick.transient && tick.urgency == .normal)
        #expect(!BannerRenderer(profile: xfce).render(active, previous: nil).transient)
    }

    @Test func verificationChangeIsMeaningfulAndPops() {
        var unverified = active
        unverified.badge = .unverified
        let content = BannerRenderer(profile: gnome).render(unverified, previous: active)
        #expect(content.urgency == .normal)
        #expect(content.iconName == "com.relavoi.Agent-unverified")
        #expect(content.body == "+1555, 01:01, <b>⚠ Unverified</b>")
    }

    @Test func plainServersGetTheBodyVerbatimAndMarkupServersEscaped() {
        let odd = BannerSnapshot(kind: .active, label: "x", proxyNumber: "<i>+1</i>&", verified: false, seconds: 0)
        #expect(BannerRenderer(profile: plain).render(odd, previous: nil).body == "<i>+1</i>&, 00:00\n⚠ Unverified")
        #expect(
            BannerRenderer(profile: gnome).render(odd, previous: nil).body
                == "&lt;i&gt;+1&lt;/i&gt;&amp;, 00:00, <b>⚠ Unverified</b>")
    }

    /// GNOME Shell draws each line break of a body as a space: there the lines go joined by
    /// a comma, so "…+1555" and "Verified" stay apart (on screen and read aloud); servers
    /// that keep lines get them as lines.
    @Test func theLinesOfABodyAreJoinedByACommaWhereTheServerDrawsOneLine() {
        let gnome50 = NotificationServerProfile(
            name: "gnome-shell", vendor: "GNOME", version: "50.5", capabilities: ["body", "body-markup", "actions"])
        let ringing = BannerSnapshot(kind: .ringing, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 0)
        let missed = BannerSnapshot(kind: .missed, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 0)
        let bodies: [(BannerSnapshot, String, String)] = [
            (ringing, "Incoming call on +1555, Verified", "Incoming call on +1555\nVerified"),
            (active, "+1555, 01:01, Verified", "+1555, 01:01\nVerified"),
            (ended, "Call ended, 01:02, +1555, Verified", "Call ended, 01:02\n+1555, Verified"),
            (missed, "Missed call on +1555, Verified", "Missed call on +1555\nVerified"),
        ]
        for (snapshot, joined, lines) in bodies {
            for profile in [gnome, gnome50] {
                #expect(BannerRenderer(profile: profile).render(snapshot, previous: nil).body == joined)
            }
            for profile in [kde, xfce, dunst, plain] {
                #expect(BannerRenderer(profile: profile).render(snapshot, previous: nil).body == lines, "\(profile)")
            }
        }
        #expect(gnome.rules.joinsBodyLines && gnome50.rules.joinsBodyLines)
        #expect(!kde.rules.joinsBodyLines && !xfce.rules.joinsBodyLines && !dunst.rules.joinsBodyLines)
    }

    @Test func endedStateIsNotResidentAndUsesServerTimeout() {
        let ended = BannerSnapshot(kind: .ended, label: "Rider", proxyNumber: "+1555", verified: true, seconds: 3700)
        let content = BannerRenderer(profile: plain).render(ended, previous: active)
        #expect(content.category == "call.ended")
        #expect(!content.resident)
        #expect(content.expireTimeout == -1)
        #expect(content.body == "Call ended, 1:01:40\n+1555, Verified")
    }

    @Test func ringingSoundsOnlyWhenAskedAndRespectsDoNotDisturb() {
        let ringing = BannerSnapshot(kind: .ringing, label: "Rider", proxyNumber: "+1555", verified: false, seconds: 0)
        let first = BannerRenderer(profile: gnome).render(ringing, previous: nil, rings: true)
        #expect(first.category == "call.incoming" && first.soundName == "phone-incoming-call" && !first.suppressSound)
        let unasked = BannerRenderer(profile: gnome).render(ringing, previous: nil)
        #expect(unasked.soundName == nil && unasked.suppressSound, "a re-show (server restart) does not ring again")
        var relabelled = ringing
        relabelled.label = "Other"
        let update = BannerRenderer(profile: gnome).render(relabelled, previous: ringing)
        #expect(update.soundName == nil && update.suppressSound)
        #expect(
            BannerRenderer(profile: gnome, doNotDisturb: true).render(ringing, previous: nil, rings: true).soundName
                == nil)
        let breakThrough = BannerRenderer(profile: gnome, doNotDisturb: true, ringThroughDoNotDisturb: true).render(
            ringing, previous: nil, rings: true)
        #expect(breakThrough.urgency == .critical && breakThrough.soundName == "phone-incoming-call")
    }

    @Test func eachBadgeHasItsOwnTextAndIcon() {
        var texts: Set<String> = []
        var icons: Set<String> = []
        for badge in VerificationBadge.allCases {
            var snapshot = active
            snapshot.badge = badge
            let content = BannerRenderer(profile: plain).render(snapshot, previous: nil)
            #expect(content.body == "+1555, 01:01\n\(badge.bannerText)")
            texts.insert(badge.bannerText)
            icons.insert(content.iconName)
        }
        #expect(texts.count == 4 && icons.count == 4)
        var checking = ringing
        checking.badge = .checking
        let body = BannerRenderer(profile: gnome).render(checking, previous: nil).body
        #expect(!body.contains("Unverified") && !body.contains("Verified") && body.contains("Checking…"))
        #expect(VerificationBadge.unavailable.bannerText == "Could not verify")
    }

    @Test func missedCallCategory() {
        let missed = BannerSnapshot(kind: .missed, label: "Rider", proxyNumber: "+1555", verified: false, seconds: 0)
        #expect(BannerRenderer(profile: plain).render(missed, previous: nil).category == "call.unanswered")
    }

    @Test func labelCannotFakeTheBadge() {
        let spoof = BannerSnapshot(
            kind: .active, label: "✔ Verified\n+1555 · 01:01", proxyNumber: "+1555", verified: false, seconds: 1)
        let content = BannerRenderer(profile: plain).render(spoof, previous: nil)
        #expect(!content.summary.contains("✔") && !content.summary.contains("\n"))
        #expect(content.iconName == "com.relavoi.Agent-unverified")
        #expect(content.body.hasSuffix("⚠ Unverified"))
    }

    @Test func verificationResolvingWhileRingingPopsWithoutASecondRing() {
        var resolved = ringing
        resolved.label = "Rider"
        resolved.badge = .verified
        for profile in [gnome, kde, xfce, dunst, plain] {
            let first = BannerRenderer(profile: profile).render(ringing, previous: nil, rings: true)
            let content = BannerRenderer(profile: profile).render(resolved, previous: ringing)
            // GNOME plays the sound of every Notify that names it: only the first names it.
            #expect(first.soundName == "phone-incoming-call")
            #expect(content.soundName == nil && content.suppressSound)
            #expect(content.urgency == .normal && !content.transient && content.expireTimeout == 0)
            #expect(content.iconName == "com.relavoi.Agent-verified")
        }
    }

    @Test func xfceTicksStayTransientWithKeepOnScreen() {
        // keep-on-screen is about the screen: a tick still leaves no history entry.
        var next = active
        next.seconds = 62
        let tick = BannerRenderer(profile: xfce, keepOnScreen: true).render(next, previous: active)
        #expect(tick.transient && tick.urgency == .normal && tick.expireTimeout == 0)
        #expect(!BannerRenderer(profile: xfce, keepOnScreen: true).render(ended, previous: next).transient)
    }

    /// Budgie slides a popup's whole content in again on every update: a tick
    /// renders what the server already has (so nothing is sent), the live text
    /// has no running timer, and only a ringing call (or a live one with
    /// keep-on-screen) is kept up, with the longest timeout Budgie takes (12 s).
    @Test func budgieTicksChangeNothingAndOnlyRingingIsKeptUp() {
        for version in ["10.7.1", "10.9.2"] {
            let budgie = NotificationServerProfile(
                name: "Budgie Notification Server", vendor: "Budgie Desktop Developers", version: version,
                capabilities: ["actions", "body", "body-markup", "sound"])
            var renderer = BannerRenderer(profile: budgie)
            renderer.phrases.clockTime = { _ in "14:02" }
            var live = active
            live.startedAt = Date(timeIntervalSince1970: 1_800_000_000)
            var next = live
            next.seconds = 62
            let first = renderer.render(live, previous: nil)
            #expect(first.body == "+1555, since 14:02\nVerified", "no timer in the popup")
            #expect(renderer.render(next, previous: live) == first, "a tick: the same content, not sent again")
            #expect(!first.keptUp && first.expireTimeout == 0)
            let rings = renderer.render(ringing, previous: nil)
            #expect(rings.keptUp && rings.expireTimeout == 12000, "kept up, with Budgie's longest timeout")
            renderer.keepOnScreen = true
            let kept = renderer.render(live, previous: nil)
            #expect(kept.keptUp && kept.expireTimeout == 12000, "keep-on-screen keeps the live popup up")
            var changed = next
            changed.badge = .unverified
            #expect(renderer.render(changed, previous: next).body.contains("Unverified"), "a change still goes")
        }
        #expect(
            BannerRenderer(profile: dunst).render(active, previous: nil).body.contains("01:01"), "elsewhere it ticks")
    }

    /// Cinnamon hides a popup below critical after 4 s whatever its timeout: the
    /// ringing call, which does not tick, is critical there, and only it.
    @Test func cinnamonRingsAtCriticalUrgencyAndTheAnsweredCallGoesBackToNormal() {
        for version in ["5.6.8", "6.4.10"] {
            let cinnamon = NotificationServerProfile(
                name: "cinnamon", vendor: "GNOME", version: version,
                capabilities: ["actions", "body", "body-markup", "persistence", "sound"])
            #expect(cinnamon.rules.ringingNeedsCritical)
            let renderer = BannerRenderer(profile: cinnamon)
            let rings = renderer.render(ringing, previous: nil, rings: true)
            #expect(rings.urgency == .critical && rings.soundName == "phone-incoming-call")
            #expect(renderer.render(active, previous: ringing).urgency == .normal, "the live call ticks instead")
            let missed = BannerSnapshot(
                kind: .missed, label: "Rider", proxyNumber: "+1555", verified: false, seconds: 0)
            #expect(renderer.render(missed, previous: ringing).urgency == .normal)
            #expect(renderer.render(ended, previous: active).urgency == .normal)
            let quiet = BannerRenderer(profile: cinnamon, doNotDisturb: true)
            #expect(quiet.render(ringing, previous: nil).urgency == .normal, "Do Not Disturb: no critical")
            let ringThrough = BannerRenderer(profile: cinnamon, doNotDisturb: true, ringThroughDoNotDisturb: true)
            #expect(ringThrough.render(ringing, previous: nil).urgency == .critical)
        }
        for other in [gnome, xfce, plain, kde, dunst] {
            #expect(!other.rules.ringingNeedsCritical)
            #expect(BannerRenderer(profile: other).render(ringing, previous: nil).urgency == .normal)
        }
    }

    @Test func gnomeKeepOnScreenIsCriticalForTheWholeCall() {
        let renderer = BannerRenderer(profile: gnome, keepOnScreen: true)
        var next = active
        next.seconds = 62
        #expect(renderer.render(ringing, previous: nil).urgency == .critical)
        #expect(renderer.render(active, previous: ringing).urgency == .critical)
        #expect(renderer.render(next, previous: active).urgency == .critical)
        #expect(renderer.render(ended, previous: next).urgency == .critical)
        // Notices that are not a live call keep GNOME's normal banner.
        let missed = BannerSnapshot(kind: .missed, label: "Rider", proxyNumber: "+1555", verified: false, seconds: 0)
        let message = BannerSnapshot(kind: .message, label: "Rider", proxyNumber: "+1555", verified: false, seconds: 0)
        #expect(renderer.render(missed, previous: ringing).urgency == .normal)
        #expect(renderer.render(message, previous: nil).urgency == .normal)
    }

    @Test func gnomeKeepOnScreenRespectsDoNotDisturb() {
        var next = active
        next.seconds = 62
        let quiet = BannerRenderer(profile: gnome, keepOnScreen: true, doNotDisturb: true)
        #expect(quiet.render(ringing, previous: nil).urgency == .normal)
        #expect(quiet.render(active, previous: ringing).urgency == .normal)
        #expect(quiet.render(next, previous: active).urgency == .normal)
        #expect(quiet.render(ringing, previous: nil).soundName == nil)
        let ringThrough = BannerRenderer(
            profile: gnome, keepOnScreen: true, doNotDisturb: true, ringThroughDoNotDisturb: true)
        #expect(ringThrough.render(ringing, previous: nil).urgency == .critical)
        #expect(ringThrough.render(active, previous: ringing).urgency == .normal)
    }

    @Test func gnomeDefaultPopsMeaningfulChangesAtNormalUrgency() {
        let renderer = BannerRenderer(profile: gnome)
        #expect(renderer.render(ringing, previous: nil).urgency == .normal)
        #expect(renderer.render(active, previous: ringing).urgency == .normal)
        #expect(renderer.render(ended, previous: active).urgency == .normal)
        #expect(!renderer.render(active, previous: ringing).transient)
    }

    @Test func otherServersTickInPlaceWithoutExtraHints() {
        var next = active
        next.seconds = 62
        for profile in [kde, dunst, plain] {
            for keep in [false, true] {
                let tick = BannerRenderer(profile: profile, keepOnScreen: keep).render(next, previous: active)
                #expect(tick.urgency == .normal && !tick.transient)
                #expect(tick.resident && tick.expireTimeout == 0)
                #expect(tick.soundName == nil && tick.suppressSound)
                #expect(tick.body.hasPrefix("+1555, 01:02"))
            }
        }
    }

    @Test func everyLiveCallBannerNeverExpires() {
        // Every server tried closes an expired banner (Plasma sends
        // NotificationClosed 1), and a closed banner is gone for good.
        for profile in [gnome, kde, xfce, dunst, plain] {
            for keep in [false, true] {
                let renderer = BannerRenderer(profile: profile, keepOnScreen: keep)
                #expect(renderer.render(ringing, previous: nil).expireTimeout == 0)
                #expect(renderer.render(active, previous: ringing).expireTimeout == 0)
                #expect(renderer.render(ended, previous: active).expireTimeout == -1)
            }
        }
    }

    @Test func onlyGnomeNeedsTimeBetweenPops() {
        #expect(gnome.popSettleInterval >= 0.25)
        for profile in [kde, xfce, dunst, plain, NotificationServerProfile.unknown] {
            #expect(profile.popSettleInterval == 0)
        }
    }

    @Test(arguments: [
        ("gnome-shell", "GNOME", NotificationServerProfile.Family.gnome), ("Plasma", "KDE", .kde),
        ("Xfce Notify Daemon", "Xfce", .xfce), ("dunst", "knopwob", .dunst), ("Notification Daemon", "GNOME", .other),
    ])
    func serverFamilies(name: String, vendor: String, family: NotificationServerProfile.Family) {
        #expect(NotificationServerProfile(name: name, vendor: vendor, capabilities: []).family == family)
    }
}

/// The renderer's rules over a whole call, as the sequence of `Notify`s a
/// server gets: ringing (checking, then verified), answered, ticks, ended.
@Suite struct ServerRulesOverACallTests {
    struct Sent {
        var kind: BannerSnapshot.Kind
        var content: NotificationContent
    }

    func call(on profile: NotificationServerProfile, keepOnScreen: Bool = false) -> [Sent] {
        let renderer = BannerRenderer(profile: profile, keepOnScreen: keepOnScreen)
        var snapshots = [
            BannerSnapshot(kind: .ringing, label: "", proxyNumber: "+1555", badge: .checking, seconds: 0),
            BannerSnapshot(kind: .ringing, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 0),
        ]
        for second in 0..<5 {
            snapshots.append(
                BannerSnapshot(kind: .active, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: second))
        }
        snapshots.append(
            BannerSnapshot(kind: .ended, label: "Rider", proxyNumber: "+1555", badge: .verified, seconds: 5))
        var previous: BannerSnapshot?
        var sent: [Sent] = []
        for (index, snapshot) in snapshots.enumerated() {
            sent.append(
                Sent(kind: snapshot.kind, content: renderer.render(snapshot, previous: previous, rings: index == 0)))
            previous = snapshot
        }
        return sent
    }

    let gnome43 = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "43.9", capabilities: ["body", "body-markup", "sound"])
    let gnome48 = NotificationServerProfile(
        name: "gnome-shell", vendor: "GNOME", version: "48.7", capabilities: ["body", "body-markup", "sound"])

    @Test func versionsPickTheirRules() {
        #expect(!gnome43.rules.notificationPerPhase && gnome43.majorVersion == 43)
        #expect(gnome43.rules.newNotificationToBeHeard && gnome48.rules.newNotificationToBeHeard)
        #expect(gnome48.rules.notificationPerPhase && gnome48.rules.liveAtLowUrgency)
        for version in ["45.0", "46.2", "47.1", "48.7", ""] {
            let profile = NotificationServerProfile(
                name: "gnome-shell", vendor: "GNOME", version: version, capabilities: [])
            #expect(profile.rules.notificationPerPhase, "GNOME \(version)")
        }
        let plasma6 = NotificationServerProfile(name: "Plasma", vendor: "KDE", version: "6.3.6", capabilities: [])
        #expect(
            plasma6.rules
                == NotificationServerProfile(name: "Plasma", vendor: "KDE", version: "5.27.5", capabilities: []).rules)
        #expect(!plasma6.rules.notificationPerPhase && plasma6.rules.ticks == .plain)
        #expect(plasma6.rules.newNotificationToBeHeard)
        #expect(
            call(on: plasma6).map(\.content.identity) == ["checking-", "", "", "", "", "", "", "end"],
            "Plasma updates its popup in place: what Orca must hear comes anew")
    }

    @Test func gnome48NeverChangesANotificationsUrgencyAndGivesEachPhaseItsOwn() {
        for keepOnScreen in [false, true] {
            let sent = call(on: gnome48, keepOnScreen: keepOnScreen)
            let byIdentity = Dictionary(grouping: sent, by: \.content.identity)
            #expect(Set(byIdentity.keys) == ["checking-ringing", "ringing", "active", "ended"])
            for (identity, contents) in byIdentity {
                #expect(Set(contents.map(\.content.urgency)).count == 1, "\(identity) changes urgency")
            }
            let live = byIdentity["active"]!.map(\.content.urgency)
            #expect(live.allSatisfy { $0 == (keepOnScreen ? .critical : .low) }, "ticks never pop")
            #expect(
                byIdentity["ringing"]!.first?.content.urgency == (keepOnScreen ? .critical : .normal), "ringing pops")
            #expect(byIdentity["ended"]!.first?.content.urgency != .low, "the ended state pops")
            #expect(sent.filter { $0.content.soundName != nil }.count == 1, "one ring")
            #expect(sent.dropFirst().allSatisfy { $0.content.suppressSound })
            #expect(
                sent.filter { $0.kind != .ended }.allSatisfy { $0.content.resident && $0.content.expireTimeout == 0 })
        }
    }

    @Test func gnome43PopsAtAnswerTicksQuietlyAndShowsTheSettledRingAndTheEndAnew() {
        let sent = call(on: gnome43)
        #expect(
            sent.map(\.content.identity) == ["checking-", "", "", "", "", "", "", "end"],
            "a new one once the ring's badge is known, and for the end; the ticks in place")
        #expect(sent.map(\.content.urgency) == [.normal, .normal, .normal, .low, .low, .low, .low, .normal])
        #expect(sent.filter { $0.content.soundName != nil }.count == 1)
    }

    @Test func otherServersKeepOneNotificationAndTheirTickStyle() {
        let xfce = NotificationServerProfile(name: "Xfce Notify Daemon", vendor: "Xfce", capabilities: ["body"])
        let ticks = call(on: xfce).filter { $0.kind == .active }.dropFirst()
        #expect(ticks.allSatisfy { $0.content.transient && $0.content.urgency == .normal && $0.content.identity == "" })
        let dunst = NotificationServerProfile(name: "dunst", vendor: "knopwob", capabilities: ["body"])
        #expect(call(on: dunst).allSatisfy { $0.content.urgency == .normal && !$0.content.transient })
    }
}
