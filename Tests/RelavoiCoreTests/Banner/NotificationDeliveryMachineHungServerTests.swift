import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// A show the server did not answer in time (it hangs): the server may still
/// carry it out once it runs again, so the banner waits for that late answer,
/// takes the notification it made, and shows its latest content there; a
/// banner that ended meanwhile has it closed; it goes again only when the
/// server answers other calls and not this one (it dropped it), never while the
/// server answers nothing. Nothing rings twice, nothing sticks, nothing flickers.
@Suite struct NotificationDeliveryMachineHungServerTests {
    typealias Action = NotificationDeliveryMachine.Action

    let ringing = NotificationDeliveryMachineTests.ringingWithSound
    let live = NotificationDeliveryMachineTests.content("00:30")

    /// A machine whose first show of `ringing` for banner "a" timed out at 35.
    func timedOut() -> NotificationDeliveryMachine {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: 0, now: 0)
        #expect(
            machine.post(key: "a", content: ringing, now: 10) == [
                .show(key: "a", content: ringing, newNotification: true)
            ])
        #expect(machine.showTimedOut(key: "a", content: ringing, now: 35) == [])
        return machine
    }

    @Test func nothingGoesWhileTheShowIsUnanswered() {
        var machine = timedOut()
        #expect(
            machine.post(key: "a", content: live, now: 36) == [], "it would be queued behind the first, a second one")
        #expect(machine.nextWake == nil, "the server has answered nothing since")
        #expect(machine.wake(now: 40) == [])
    }

    @Test func aServerThatAnswersNothingGetsNoSecondShowHoweverLongItHangs() {
        var machine = timedOut()
        let wait = NotificationDeliveryMachine.unansweredWait
        for now in stride(from: 36.0, through: 35 + 20 * wait, by: 5) {
            #expect(machine.post(key: "a", content: live, now: now) == [], "it would make one more notification")
            #expect(machine.wake(now: now) == [])
        }
        #expect(machine.nextWake == nil)
        let end = 35 + 20 * wait + 1
        #expect(
            machine.answeredLate(key: "a", content: ringing, id: 7, now: end) == [
                .adopt(key: "a", id: 7), .show(key: "a", content: live, newNotification: false),
            ], "one notification, taken when the server runs again")
    }

    @Test func anotherBannersLateAnswerStartsTheWaitAndTheOwnAnswerEndsIt() {
        var machine = timedOut()
        let ended = NotificationDeliveryMachineTests.content("ended")
        #expect(
            machine.post(key: "b", content: ended, now: 36) == [.show(key: "b", content: ended, newNotification: true)])
        #expect(machine.showTimedOut(key: "b", content: ended, now: 61) == [])
        #expect(machine.wake(now: 500) == [], "hung: neither goes again")
        #expect(machine.nextWake == nil)
        #expect(machine.answeredLate(key: "a", content: ringing, id: 7, now: 600) == [.adopt(key: "a", id: 7)])
        #expect(
            machine.nextWake == 600 + NotificationDeliveryMachine.unansweredWait,
            "b's own answer is close behind: not shown again at once")
        #expect(machine.answeredLate(key: "b", content: ended, id: 8, now: 600) == [.adopt(key: "b", id: 8)])
        #expect(machine.nextWake == nil)
    }

    @Test func theLateAnswerIsTakenAndTheLatestContentGoesInPlace() {
        var machine = timedOut()
        _ = machine.post(key: "a", content: live, now: 36)
        #expect(
            machine.answeredLate(key: "a", content: ringing, id: 7, now: 50) == [
                .adopt(key: "a", id: 7), .show(key: "a", content: live, newNotification: false),
            ])
    }

    @Test func aLateAnswerOfTheLatestContentSendsNothingMore() {
        var machine = timedOut()
        #expect(machine.answeredLate(key: "a", content: ringing, id: 7, now: 50) == [.adopt(key: "a", id: 7)])
        #expect(machine.post(key: "a", content: ringing, now: 51) == [], "it rang once, when the server made it")
    }

    @Test func aBannerThatClosedMeanwhileHasTheLateNotificationClosed() {
        var machine = timedOut()
        #expect(machine.post(key: "a", content: nil, now: 40) == [], "no notification known to close yet")
        #expect(machine.answeredLate(key: "a", content: ringing, id: 7, now: 50) == [.closeStray(id: 7)])
        #expect(machine.keys.isEmpty)
    }

    @Test func aLateErrorIsAFailedShowTriedAgain() {
        var machine = timedOut()
        #expect(machine.answeredLate(key: "a", content: ringing, id: nil, now: 50) == [])
        #expect(
            machine.wake(now: 51) == [.show(key: "a", content: ringing, newNotification: true)],
            "the server made nothing: it may ring")
    }

    @Test func aServerThatAnswersOthersButNotThisShowGetsTheBannerAgainSilentAndALaterAnswerIsClosed() {
        var machine = timedOut()
        var silent = ringing
        silent.silence()
        // The server answers another banner's show at 300, long after this one went unanswered.
        let other = NotificationDeliveryMachineTests.content("other")
        #expect(
            machine.post(key: "b", content: other, now: 300) == [.show(key: "b", content: other, newNotification: true)]
        )
        #expect(machine.shown(key: "b", content: other, succeeded: true, now: 300) == [])
        let due = 300 + NotificationDeliveryMachine.unansweredWait
        #expect(machine.nextWake == due)
        #expect(machine.wake(now: due - 1) == [])
        #expect(machine.wake(now: due) == [.show(key: "a", content: silent, newNotification: true)])
        #expect(machine.shown(key: "a", content: silent, succeeded: true, now: due) == [])
        #expect(machine.answeredLate(key: "a", content: ringing, id: 7, now: due + 1) == [.closeStray(id: 7)])
    }

    @Test func anUpdateInPlaceThatWentUnansweredWaitsToo() {
        var machine = NotificationDeliveryMachine()
        _ = machine.serverAppeared(newServer: false, popSettleInterval: 0, now: 0)
        _ = machine.post(key: "a", content: ringing, now: 1)
        _ = machine.shown(key: "a", content: ringing, succeeded: true, now: 1)
        #expect(
            machine.post(key: "a", content: live, now: 2) == [.show(key: "a", content: live, newNotification: false)])
        #expect(machine.showTimedOut(key: "a", content: live, now: 27) == [])
        let later = NotificationDeliveryMachineTests.content("00:58")
        #expect(machine.post(key: "a", content: later, now: 28) == [])
        #expect(
            machine.answeredLate(key: "a", content: live, id: 1, now: 40) == [
                .adopt(key: "a", id: 1), .show(key: "a", content: later, newNotification: false),
            ])
    }

    @Test func aNewServerForgetsTheUnansweredShow() {
        var machine = timedOut()
        machine.serverVanished()
        #expect(
            machine.serverAppeared(newServer: true, popSettleInterval: 0, now: 40) == [
                .show(key: "a", content: ringing, newNotification: true)
            ])
    }
}
