import Testing

@testable import RelavoiCore

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
    let live1 = content("00:01")
    let live2 = content("00:02")

    /// A machine with a server, `ringing` shown for banner "a" at `now`.
    func showingRinging(popSettle: Double = 0, now: Double = 10) -> NotificationDeliveryMachine {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: popSettle, now: now)
        _ = machine.post(key: "a", content: ringing, now: now)
        _ = machine.shown(key: "a", content: ringing, succeeded: true, now: now)
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
        machine.closedByServer(key: "a")
        #expect(machine.keys == [])
        #expect(machine.post(key: "a", content: nil, now: 11) == [])
    }
}
