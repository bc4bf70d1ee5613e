import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// The agent's notices: updated in place, never posted again unchanged,
/// nothing before a server is known, closed once answered.
@Suite struct NoticeMachineTests {
    let offline = AgentNotice(summary: "Relavoi is offline", body: "Calls will not show")
    let question = AgentNotice(
        summary: "Show calls in the top bar?", body: "", buttons: [NotificationButton(id: "yes", label: "Yes")])

    func known() -> NoticeMachine {
        var machine = NoticeMachine()
        machine.serverAppeared()
        return machine
    }

    @Test func aNoticeIsUpdatedInPlaceAndNotPostedAgainUnchanged() {
        var machine = known()
        #expect(machine.show(offline, key: "n") == [.present(key: "n", notice: offline)])
        #expect(machine.show(offline, key: "n") == [], "unchanged: nothing sent")
        var later = offline
        later.body = "Calls will not show since 10:40"
        #expect(machine.show(later, key: "n") == [.present(key: "n", notice: later)], "the same key: in place")
        #expect(machine.close(key: "n") == [.close(key: "n")])
        #expect(machine.close(key: "n") == [], "closed once")
        #expect(machine.show(later, key: "n") == [.present(key: "n", notice: later)], "shown again after its close")
    }

    @Test func nothingIsPostedBeforeTheServerIsKnownThenEveryNotice() {
        var machine = NoticeMachine()
        #expect(machine.show(question, key: "q") == [])
        #expect(machine.show(offline, key: "n") == [])
        #expect(machine.rerender() == [])
        machine.serverAppeared()
        #expect(machine.rerender() == [.present(key: "n", notice: offline), .present(key: "q", notice: question)])
    }

    @Test func anAnsweredNoticeIsClosedAndItsAnswerHeardOnce() {
        var machine = known()
        _ = machine.show(question, key: "q")
        #expect(machine.activated(key: "q", action: "default") == [], "a click on the body answers nothing")
        #expect(machine.activated(key: "q", action: "yes") == [.close(key: "q"), .ended(key: "q", button: "yes")])
        #expect(machine.activated(key: "q", action: "yes") == [], "answered once")
        #expect(machine.notices.isEmpty)
    }

    @Test func aNoticeTheServerClosedEndsUnansweredAndIsNotClosedAgain() {
        var machine = known()
        _ = machine.show(question, key: "q")
        #expect(machine.closedByServer(key: "q") == [.ended(key: "q", button: nil)])
        #expect(machine.closedByServer(key: "q") == [])
        #expect(machine.rerender() == [])
    }
}
