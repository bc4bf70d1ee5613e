import Testing

@testable import RelavoiCore

@Suite struct TopBarOfferTests {
    @Test func asksOnlyOnGNOMEBeforeAnAnswerForAnExtensionThatCanBeTurnedOn() {
        #expect(TopBarOffer.decide(answer: .ask, isGNOME: true, status: .disabled) == .ask)
        #expect(TopBarOffer.decide(answer: .ask, isGNOME: true, status: .installedSinceLogin) == .ask)
        let skipped: [(TopBarAnswer, Bool, TopBarOffer.Status)] = [
            (.ask, false, .disabled), (.on, true, .disabled), (.off, true, .disabled), (.ask, true, .enabled),
            (.ask, true, .notInstalled), (.ask, true, .noShell), (.ask, true, .extensionsOff),
            (.ask, true, .refused("out of date")),
        ]
        for (answer, isGNOME, status) in skipped {
            #expect(TopBarOffer.decide(answer: answer, isGNOME: isGNOME, status: status) != .ask, "\(status)")
        }
    }

    @Test func theShellsStatesMapAsIn43To51() {
        #expect(TopBarOffer.Status(shellState: 1, error: "") == .enabled)
        #expect(TopBarOffer.Status(shellState: 2, error: "") == .disabled)
        #expect(TopBarOffer.Status(shellState: 6, error: "") == .disabled, "initialized: never enabled yet")
        #expect(TopBarOffer.Status(shellState: 3, error: "boom") == .refused("boom"))
        #expect(TopBarOffer.Status(shellState: 4, error: "") == .refused("GNOME Shell says it is out of date"))
        #expect(TopBarOffer.Status(shellState: 99, error: "") == .notInstalled)
    }

    @Test func aYesSaysWhenItTakesEffect() {
        #expect(TopBarOffer.outcome(status: .disabled, shellEnabled: true, savedForNextLogin: false) == .onNow)
        #expect(
            TopBarOffer.outcome(status: .installedSinceLogin, shellEnabled: false, savedForNextLogin: true)
                == .onAtNextLogin)
        #expect(
            TopBarOffer.outcome(status: .disabled, shellEnabled: false, savedForNextLogin: false)
                == .failed("GNOME Shell did not turn it on"))
        #expect(
            TopBarOffer.outcome(status: .installedSinceLogin, shellEnabled: nil, savedForNextLogin: false)
                == .failed("GNOME Shell did not answer"))
        #expect(
            TopBarOffer.outcome(status: .disabled, shellEnabled: nil, savedForNextLogin: false, refusal: "locked down")
                == .failed("GNOME Shell answered: locked down"))
    }
}
