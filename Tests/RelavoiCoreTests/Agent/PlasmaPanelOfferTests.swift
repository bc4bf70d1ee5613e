import Testing

@testable import RelavoiCore

@Suite struct PlasmaPanelOfferTests {
    let ready = PlasmaPanelOffer.Shell(version: "6.7.4", widgetInstalled: true, widgetInPanel: false)

    @Test func asksOnPlasma64AndLaterWithTheWidgetInstalledAndInNoPanel() {
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: ready) == .ask)
        var shell = ready
        shell.version = "6.4.0"
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell) == .ask)
    }

    @Test func skipsWhatCannotWorkOrWasAnswered() {
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: false, shell: ready) != .ask)
        #expect(PlasmaPanelOffer.decide(answer: .on, isKDE: true, shell: ready) != .ask)
        #expect(PlasmaPanelOffer.decide(answer: .off, isKDE: true, shell: ready) != .ask)
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: nil) != .ask)
        var shell = ready
        shell.version = "6.3.6"
        #expect(
            PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell)
                == .skip("Plasma 6.3.6 is older than 6.4: the tray item shows the calls"))
        shell.version = "5.27.5"
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell) != .ask)
        shell.version = "garbage"
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell) != .ask)
        shell = ready
        shell.widgetInstalled = false
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell) != .ask)
        shell = ready
        shell.widgetInPanel = true
        #expect(PlasmaPanelOffer.decide(answer: .ask, isKDE: true, shell: shell) != .ask)
    }

    @Test func readsTheProbesLine() {
        #expect(PlasmaPanelOffer.parseProbe("6.7.4 true false\n") == ready)
        #expect(PlasmaPanelOffer.parseProbe("6.7.4 yes false") == nil)
        #expect(PlasmaPanelOffer.parseProbe("") == nil)
        #expect(PlasmaPanelOffer.parseProbe("6.7.4 true false extra") == nil)
    }
}
