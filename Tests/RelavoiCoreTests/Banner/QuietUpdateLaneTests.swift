import Testing

@testable import RelavoiCore

@Suite struct QuietUpdateLaneTests {
    func live(_ second: Int, urgency: NotificationContent.Urgency = .low) -> NotificationContent {
        var content = NotificationContent(
            summary: "Rider", body: "+1 555 · 00:0\(second)", iconName: "verified", category: "call", urgency: urgency)
        content.defaultAction = "Open call"
        return content
    }

    func lane(popsWaitTheirTurn: Bool = false) -> QuietUpdateLane {
        QuietUpdateLane(settledOn: live(1), popsWaitTheirTurn: popsWaitTheirTurn)
    }

    @Test func aChangeGoesOutAtOnceAndTheSameContentNever() {
        var lane = lane()
        #expect(lane.offer(live(1), now: 0) == .taken, "the server has it: KDE rejects a repeat")
        #expect(lane.offer(live(2), now: 1) == .send(live(2)))
        #expect(lane.underWay == live(2))
        #expect(lane.answered(applied: true, now: 1.01) == .settled)
        #expect(lane.acknowledged == live(2))
        #expect(lane.offer(live(2), now: 2) == .taken)
        #expect(lane.underWay == nil)
    }

    @Test func oneUnderWayThenOnlyTheLatest() {
        var lane = lane()
        #expect(lane.offer(live(2), now: 1) == .send(live(2)))
        #expect(lane.offer(live(3), now: 2) == .taken)
        #expect(lane.offer(live(4), now: 3) == .taken)
        #expect(lane.answered(applied: true, now: 3.5) == .send(live(4)))
        #expect(lane.answered(applied: true, now: 3.6) == .settled)
        #expect(lane.acknowledged == live(4))
    }

    @Test func aRepeatOfTheContentUnderWayNeedsNothingMore() {
        var lane = lane()
        _ = lane.offer(live(2), now: 1)
        #expect(lane.offer(live(2), now: 1.5) == .taken)
        #expect(lane.answered(applied: true, now: 2) == .settled)
    }

    @Test func anotherNotificationClickActionOrIconIsThePresenters() {
        for change in [
            { (content: inout NotificationContent) in content.identity = "ended" },
            { (content: inout NotificationContent) in content.defaultAction = nil },
            { (content: inout NotificationContent) in content.iconName = "unverified" },
        ] {
            var lane = lane()
            var content = live(2)
            change(&content)
            #expect(lane.offer(content, now: 1) == .declined)
            #expect(!lane.isOpen)
            #expect(lane.offer(live(3), now: 2) == .declined, "a shut lane takes nothing more")
        }
    }

    @Test func popsAreQuietOnlyWhereTheyNeedNoTurn() {
        var waiting = lane(popsWaitTheirTurn: true)
        #expect(waiting.offer(live(2, urgency: .normal), now: 1) == .declined, "GNOME 43: the presenter holds it")
        var free = lane(popsWaitTheirTurn: false)
        #expect(free.offer(live(2, urgency: .normal), now: 1) == .send(live(2, urgency: .normal)))
    }

    @Test func aFailedOrMovedAnswerIsHandedOverAndShutsTheLane() {
        var lane = lane()
        _ = lane.offer(live(2), now: 1)
        _ = lane.offer(live(3), now: 2)
        #expect(lane.answered(applied: false, now: 2.5) == .handOver)
        #expect(!lane.isOpen)
        #expect(lane.acknowledged == live(1), "the server's answer is the presenter's to judge")
        #expect(lane.desired == live(3), "what was taken in is not lost")
    }

    @Test func anAnswerAfterTheLaneWasShutIsHandedOver() {
        var lane = lane()
        _ = lane.offer(live(2), now: 1)
        lane.shut()
        #expect(lane.answered(applied: true, now: 1.5) == .handOver)
        #expect(lane.acknowledged == live(2), "what the server took is known to whoever takes the lane back")
    }

    @Test func aServerSilentForTheTimeoutIsThePresenters() {
        var lane = lane()
        _ = lane.offer(live(2), now: 1)
        #expect(lane.offer(live(3), now: 1 + QuietUpdateLane.answerTimeout - 0.5) == .taken)
        #expect(lane.offer(live(4), now: 1 + QuietUpdateLane.answerTimeout) == .declined)
        #expect(!lane.isOpen)
    }
}
