import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct NotificationDeliveryMachineTests {
    typealias Action = NotificationDeliveryMachine.Action

    static func content(_ body: String, urgency: NotificationContent.Urgency = .low, identity: String = "")
        -> NotificationContent
    {
        var content = NotificationContent(
            summary: "Rider", body: body, iconName: "com.relavoi.Agent-verified", category: "call", urgency: urgency,
            resident: true, expireTimeout: 0)
        content.identity = identity
        return content
    }

    let ringing = content("Incoming call", urgency: .critical)
    /// A call's first ringing content, as the renderer makes it: the one that rings.
    static var ringingWithSound: NotificationContent {
        var ringing = content("Incoming call", urgency: .critical)
        ringing.category = NotificationContent.ringingCategory
        ringing.keptUp = true
        ringing.soundName = "phone-incoming-call"
        ringing.suppressSound = false
        return ringing
    }
    let live1 = content("00:01")
    let live2 = content("00:02")

    /// A machine with a server, `ringing` shown for banner "a" at `now`.
    func showingRinging(popSettle: Double = 0, now: Double = 10) -> NotificationDeliveryMachine {
        showing(ringing, popSettle: popSettle, now: now)
    }

    /// A machine with a server of these rules, `content` shown for banner "a" at `now`.
    func showing(
        _ content: NotificationContent, popSettle: Double = 0, keepsExpiredIds: Bool = false,
        popupLifetime: Double? = nil, now: Double = 10
    ) -> NotificationDeliveryMachine {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(
            newServer: false, popSettleInterval: popSettle, keepsExpiredIds: keepsExpiredIds,
            popupLifetime: popupLifetime, now: now)
        _ = machine.post(key: "a", content: content, now: now)
        _ = machine.shown(key: "a", content: content, succeeded: true, now: now)
        return machine
    }

    @Test func aNewBannerIsANewNotificationAndItsUpdatesGoInPlace() {
        var machine = NotificationDeliveryMachine()
        #expect(machine.serverAppeared(newServer: false, popSettleInterval: 0, now: 0) == [])
        #expect(
            machine.post(key: "a", content: ringing, now: 1) == [
                .show(key: "a", content: ringing, newNotification: true)
            ])
        #expect(machine.shown(key: "a", content: ringing, succeeded: true, now: 1) == [])
        #expect(
            machine.post(key: "a", content: live1, now: 2) == [.show(key: "a", content: live1, newNotification: false)])
    }

    @Test func oneShowAtATimeAndOnlyTheLatestFollows() {
        var machine = showingRinging()
        #expect(
            machine.post(key: "a", content: live1, now: 11) == [.show(key: "a", content: live1, newNotification: false)]
        )
        #expect(machine.post(key: "a", content: live2, now: 11.1) == [], "under way: taken in, not sent")
        let later = Self.content("00:03")
        #expect(machine.post(key: "a", content: later, now: 11.2) == [])
        #expect(
            machine.shown(key: "a", content: live1, succeeded: true, now: 11.3)
                == [.show(key: "a", content: later, newNotification: false)])
    }

    @Test func theSameContentIsNeverSentTwice() {
        var machine = showingRinging()
        #expect(machine.post(key: "a", content: ringing, now: 11) == [])
        _ = machine.post(key: "a", content: live1, now: 12)
        // The same content again while it is under way: once it is
        // answered, the server has the latest and nothing more goes.
        _ = machine.post(key: "a", content: live1, now: 12.1)
        #expect(machine.shown(key: "a", content: live1, succeeded: true, now: 12.2) == [])
    }

    @Test func anotherIdentityIsANewNotification() {
        var machine = showingRinging()
        let ended = Self.content("Call ended", urgency: .normal, identity: "ended")
        #expect(
            machine.post(key: "a", content: ended, now: 11) == [.show(key: "a", content: ended, newNotification: true)])
    }

    @Test func aPopWaitsUntilThePreviousOneHasSettledAndATickDoesNotCancelIt() {
        var machine = showingRinging(popSettle: 0.3, now: 10)
        let ended = Self.content("Call ended", urgency: .normal)
        #expect(machine.post(key: "a", content: ended, now: 10.1) == [], "held: the ringing pop is still sliding in")
        #expect(machine.nextWake == 10.3)
        var tick = ended
        tick.urgency = .low
        #expect(machine.post(key: "a", content: tick, now: 10.2) == [], "still held, at the pop's urgency")
        #expect(machine.wake(now: 10.25) == [])
        #expect(machine.wake(now: 10.3) == [.show(key: "a", content: ended, newNotification: false)])
        #expect(machine.nextWake == nil)
    }

    @Test func lowAndCriticalUpdatesAreNeverHeld() {
        var machine = showingRinging(popSettle: 0.3, now: 10)
        #expect(
            machine.post(key: "a", content: live1, now: 10.1) == [
                .show(key: "a", content: live1, newNotification: false)
            ])
        _ = machine.shown(key: "a", content: live1, succeeded: true, now: 10.1)
        let critical = Self.content("Ringing again", urgency: .critical)
        #expect(
            machine.post(key: "a", content: critical, now: 10.15)
                == [.show(key: "a", content: critical, newNotification: false)])
    }

    @Test func aFailedShowIsTriedAgainWithTheLatest() {
        var machine = showingRinging()
        _ = machine.post(key: "a", content: live1, now: 11)
        #expect(machine.shown(key: "a", content: live1, succeeded: false, now: 36) == [])
        #expect(machine.nextWake == 36 + NotificationDeliveryMachine.retryInterval)
        #expect(machine.post(key: "a", content: live2, now: 36.5) == [], "waits for the retry")
        #expect(machine.wake(now: 37) == [.show(key: "a", content: live2, newNotification: false)])
    }

    @Test func aFailedFirstShowIsTriedAgainAsANewNotification() {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: 0, now: 0)
        _ = machine.post(key: "a", content: ringing, now: 1)
        _ = machine.shown(key: "a", content: ringing, succeeded: false, now: 26)
        #expect(machine.wake(now: 27) == [.show(key: "a", content: ringing, newNotification: true)])
    }

    @Test func nothingIsSentWithoutAServerAndANewServerGetsEveryBannerAnew() {
        var machine = showingRinging()
        machine.serverVanished()
        #expect(machine.post(key: "a", content: live1, now: 11) == [])
        #expect(machine.post(key: "b", content: ringing, now: 11) == [])
        #expect(
            machine.serverAppeared(newServer: true, popSettleInterval: 0, now: 12)
                == [
                    .show(key: "a", content: live1, newNotification: true),
                    .show(key: "b", content: ringing, newNotification: true),
                ])
    }

    @Test func aRestartSeenOnlyAsANewOwnerAlsoShowsAnew() {
        var machine = showingRinging()
        #expect(
            machine.serverAppeared(newServer: true, popSettleInterval: 0, now: 11)
                == [.show(key: "a", content: ringing, newNotification: true)])
    }

    @Test func closingSendsACloseOnlyForANotificationThatExists() {
        var machine = showingRinging()
        #expect(machine.post(key: "a", content: nil, now: 11) == [.close(key: "a")])
        #expect(machine.post(key: "a", content: nil, now: 12) == [])
        machine.serverVanished()
        _ = machine.post(key: "b", content: ringing, now: 13)
        #expect(machine.post(key: "b", content: nil, now: 14) == [], "never shown: nothing to close")
        #expect(machine.keys == [])
    }

    @Test func aBannerTheServerClosedIsForgotten() {
        var machine = showingRinging()
        _ = machine.closedByServer(key: "a")
        #expect(machine.keys == [])
        #expect(machine.post(key: "a", content: nil, now: 11) == [])
    }

    /// A machine for a server that `keepsExpiredIds` (Budgie), `ringing`
    /// shown for banner "a" as notification 7 and expired at once (Budgie in
    /// Do Not Disturb).
    func ringingExpiredOnBudgie() -> NotificationDeliveryMachine {
        var machine = showing(ringing, keepsExpiredIds: true)
        let listed = machine.closedByServer(key: "a", reason: 1, id: 7)
        #expect(listed, "the server lists it")
        return machine
    }

    /// Budgie's Raven replaces its entry for an id: the next phase of a call
    /// whose notification expired goes under the same id, so the call keeps
    /// one entry there, ending in its true state (not one stale entry per
    /// phase); twice, as Raven shows only every other replacement of a
    /// group's only entry.
    @Test func anExpiredNotificationShowsAgainUnderItsIdWhereTheServerKeepsThem() {
        var machine = ringingExpiredOnBudgie()
        #expect(machine.keys == [], "forgotten until the banner shows again")
        #expect(
            machine.post(key: "a", content: live1, now: 13)
                == [.show(key: "a", content: live1, newNotification: false, replaces: 7)])
        #expect(
            machine.shown(key: "a", content: live1, succeeded: true, now: 13)
                == [.show(key: "a", content: live1, newNotification: false)], "once more, in place")
        #expect(machine.shown(key: "a", content: live1, succeeded: true, now: 13) == [])
        #expect(
            machine.post(key: "a", content: live2, now: 14) == [
                .show(key: "a", content: live2, newNotification: false)
            ],
            "then in place as usual")
    }

    /// Raven takes an entry only from an expiry: the end shown under the
    /// live call's expired id is left to the server to expire (it then
    /// replaces the live entry), never closed (its close would leave the
    /// call listed as live); a live banner so shown is closed as usual.
    @Test func anEndUnderAnExpiredIdIsLeftToTheServerToExpire() {
        var machine = ringingExpiredOnBudgie()
        var ended = Self.content("Call ended", urgency: .normal)
        ended.resident = false
        ended.expireTimeout = -1
        #expect(
            machine.post(key: "a", content: ended, now: 11)
                == [.show(key: "a", content: ended, newNotification: false, replaces: 7)])
        _ = machine.shown(key: "a", content: ended, succeeded: true, now: 11)
        _ = machine.shown(key: "a", content: ended, succeeded: true, now: 11)
        #expect(machine.post(key: "a", content: nil, now: 16) == [], "no CloseNotification")
        #expect(machine.keys == [])
        machine = ringingExpiredOnBudgie()
        _ = machine.post(key: "a", content: live1, now: 11)
        #expect(machine.post(key: "a", content: nil, now: 12) == [.close(key: "a")], "not an end: closed")
        var elsewhere = showingRinging()
        _ = elsewhere.post(key: "a", content: ended, now: 11)
        #expect(elsewhere.post(key: "a", content: nil, now: 12) == [.close(key: "a")], "not under a kept id")
    }

    @Test func onlyAnExpiryOnAServerThatKeepsThemKeepsTheId() {
        var dismissed = showing(ringing, keepsExpiredIds: true)
        let dismissedListed = dismissed.closedByServer(key: "a", reason: 2, id: 7)
        #expect(!dismissedListed)
        #expect(
            dismissed.post(key: "a", content: live1, now: 11) == [
                .show(key: "a", content: live1, newNotification: true)
            ])
        var elsewhere = showingRinging()
        let elsewhereListed = elsewhere.closedByServer(key: "a", reason: 1, id: 7)
        #expect(!elsewhereListed)
        #expect(
            elsewhere.post(key: "a", content: live1, now: 11) == [
                .show(key: "a", content: live1, newNotification: true)
            ])
    }

    @Test func aKeptIdGoesWithAnotherIdentityOrAServerRestartNotAClose() {
        var machine = ringingExpiredOnBudgie()
        let ended = Self.content("Call ended", urgency: .normal, identity: "ended")
        #expect(
            machine.post(key: "a", content: ended, now: 11) == [.show(key: "a", content: ended, newNotification: true)])
        machine = ringingExpiredOnBudgie()
        machine.serverVanished()
        _ = machine.serverAppeared(newServer: true, popSettleInterval: 0, keepsExpiredIds: true, now: 11)
        #expect(
            machine.post(key: "a", content: live1, now: 12) == [.show(key: "a", content: live1, newNotification: true)])
        machine = ringingExpiredOnBudgie()
        #expect(machine.post(key: "a", content: nil, now: 11) == [], "gone from the server already")
        #expect(
            machine.post(key: "a", content: live1, now: 12)
                == [.show(key: "a", content: live1, newNotification: false, replaces: 7)],
            "taking the closed banner back keeps the id for the call's next phase")
    }

    @Test func onlyTheLatestExpiredIdsAreKept() {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: 0, keepsExpiredIds: true, now: 0)
        let limit = NotificationDeliveryMachine.keptExpiredLimit
        for index in 0...limit {
            _ = machine.post(key: "call\(index)", content: ringing, now: 1)
            _ = machine.shown(key: "call\(index)", content: ringing, succeeded: true, now: 1)
            _ = machine.closedByServer(key: "call\(index)", reason: 1, id: UInt32(index + 1))
        }
        #expect(
            machine.post(key: "call0", content: live1, now: 2)
                == [.show(key: "call0", content: live1, newNotification: true)], "the oldest went")
        #expect(
            machine.post(key: "call1", content: live1, now: 2)
                == [.show(key: "call1", content: live1, newNotification: false, replaces: 2)])
    }

    /// Budgie takes even a never-expiring popup down 6 s after its last
    /// `Notify`: a ringing call, which does not tick, is shown again before
    /// then, in place and without its sound, for as long as it rings.
    @Test func aNeverExpiringBannerIsShownAgainBeforeTheServerTakesItDown() {
        let ringingWithSound = Self.ringingWithSound
        var quiet = ringingWithSound
        quiet.silence()
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: 0, popupLifetime: 6, now: 10)
        _ = machine.post(key: "a", content: ringingWithSound, now: 10)
        #expect(machine.nextWake == nil, "nothing to keep up while the show is under way")
        #expect(machine.shown(key: "a", content: ringingWithSound, succeeded: true, now: 10) == [])
        let lifetimeLeft = 6 - NotificationDeliveryMachine.refreshMargin
        #expect(machine.nextWake == 10 + lifetimeLeft)
        #expect(machine.wake(now: 10 + lifetimeLeft - 0.1) == [])
        #expect(
            machine.wake(now: 10 + lifetimeLeft) == [.show(key: "a", content: quiet, newNotification: false)],
            "the same banner again, in place, never ringing a second time")
        #expect(machine.shown(key: "a", content: quiet, succeeded: true, now: 14) == [])
        #expect(machine.nextWake == 14 + lifetimeLeft)
        // Answered: the live call is not kept up (it goes to the server's list after its popup).
        #expect(
            machine.post(key: "a", content: live1, now: 15) == [.show(key: "a", content: live1, newNotification: false)]
        )
        _ = machine.shown(key: "a", content: live1, succeeded: true, now: 15)
        #expect(machine.nextWake == nil)
    }

    /// A live call with keep-on-screen is kept up like a ringing one, in place, unchanged.
    @Test func aLiveBannerKeptOnScreenIsShownAgainUnchanged() {
        var live = live1
        live.keptUp = true
        var machine = showing(live, popupLifetime: 6)
        let lifetimeLeft = 6 - NotificationDeliveryMachine.refreshMargin
        #expect(machine.nextWake == 10 + lifetimeLeft)
        #expect(machine.wake(now: 10 + lifetimeLeft) == [.show(key: "a", content: live, newNotification: false)])
        var notKept = showing(live1, popupLifetime: 6)
        #expect(notKept.nextWake == nil, "not kept up: left to go")
        #expect(notKept.wake(now: 100) == [])
    }

    @Test func onlyNeverExpiringBannersOnSuchServersAreShownAgain() {
        var elsewhere = showingRinging()
        #expect(elsewhere.nextWake == nil, "servers that keep a popup up: nothing to refresh")
        #expect(elsewhere.wake(now: 100) == [])
        var ended = Self.content("Call ended")
        ended.expireTimeout = -1
        var machine = showing(ended, popupLifetime: 6)
        #expect(machine.nextWake == nil, "a banner that may expire is left to expire")
        var notice = Self.content("Relavoi cannot see calls")
        notice.category = "network.disconnected"
        _ = machine.post(key: "notice", content: notice, now: 10)
        _ = machine.shown(key: "notice", content: notice, succeeded: true, now: 10)
        #expect(machine.nextWake == nil, "a lasting notice goes to the server's list after its popup")
        var summary = Self.content("2 more active calls")
        summary.category = "call"
        _ = machine.post(key: "summary", content: summary, now: 10)
        _ = machine.shown(key: "summary", content: summary, succeeded: true, now: 10)
        #expect(machine.nextWake == nil, "only ringing: the summary goes to the list like a notice")
    }

    /// The show that takes an expired id goes twice (Raven): the second never rings.
    @Test func theRepeatedShowOfAKeptIdNeverRingsAgain() {
        var machine = ringingExpiredOnBudgie()
        let ringsAgain = Self.ringingWithSound
        var quiet = ringsAgain
        quiet.silence()
        #expect(
            machine.post(key: "a", content: ringsAgain, now: 13)
                == [.show(key: "a", content: ringsAgain, newNotification: false, replaces: 7)])
        #expect(
            machine.shown(key: "a", content: ringsAgain, succeeded: true, now: 13)
                == [.show(key: "a", content: quiet, newNotification: false)], "once more, without the sound")
    }

    /// An expired ended or missed call is that call's last entry in the list: the
    /// session's next call does not take its id.
    @Test func anExpiredLastStateIsNotKept() {
        var ended = Self.content("Call ended · 00:15")
        ended.expireTimeout = -1
        ended.resident = false
        var machine = showing(ended, keepsExpiredIds: true)
        let listed = machine.closedByServer(key: "a", reason: 1, id: 9)
        #expect(!listed, "an end is not listed for the next call")
        #expect(
            machine.post(key: "a", content: ringing, now: 20)
                == [.show(key: "a", content: ringing, newNotification: true)])
    }

    /// With no server nothing can go, so nothing wakes: a failed show's retry
    /// would otherwise be due at once, for ever, until a server comes.
    @Test func noWakeWithoutAServer() {
        var machine = showingRinging()
        _ = machine.post(key: "a", content: live1, now: 11)
        _ = machine.shown(key: "a", content: live1, succeeded: false, now: 11)
        #expect(machine.nextWake == 11 + NotificationDeliveryMachine.retryInterval)
        machine.serverVanished()
        #expect(machine.nextWake == nil)
        #expect(machine.wake(now: 20) == [])
    }
}
