import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct BannerPhrasesTests {
    @Test(arguments: [
        ("Appel entrant sur le %s", "Appel entrant sur le +234 800"),
        ("%d autres appels", "+234 800 autres appels"),
        ("100%% sûr : %s", "100% sûr : +234 800"),
        ("sans marque", "sans marque"),
        ("%s et %s", "+234 800 et %s"),
        ("fin %", "fin %"),
    ])
    func fillReplacesTheFirstPlaceholderOnly(template: String, expected: String) {
        #expect(BannerPhrases.fill(template, with: "+234 800") == expected)
    }

    @Test func englishDefaultsAreTheBadgeWords() {
        #expect(BannerPhrases.english.words(.unverified) == VerificationBadge.unverified.words)
        #expect(BannerPhrases.english.bannerText(.verified) == "Verified")
        #expect(BannerPhrases.english.moreActiveCalls(1) == "1 more active call")
        #expect(BannerPhrases.english.moreActiveCalls(3) == "3 more active calls")
    }

    @Test func theRendererSpeaksThePhrasesLanguage() {
        var renderer = BannerRenderer(profile: .unknown)
        var french = BannerPhrases()
        french.verified = "Vérifié"
        french.incomingCall = "Appel entrant sur le %s"
        french.callEnded = "Appel terminé, %s"
        renderer.phrases = french
        let ringing = BannerSnapshot(kind: .ringing, label: "L", proxyNumber: "+234 800", verified: true, seconds: 0)
        #expect(renderer.render(ringing, previous: nil).body == "Appel entrant sur le +234 800\nVérifié")
        let ended = BannerSnapshot(kind: .ended, label: "L", proxyNumber: "+234 800", verified: true, seconds: 61)
        #expect(renderer.render(ended, previous: nil).body == "Appel terminé, 01:01\n+234 800, Vérifié")
    }
}

@Suite struct TextTemplateTests {
    @Test(arguments: [
        (
            "cannot reach %s (%s); %s.", ["srv", "timeout", "nothing saved"],
            "cannot reach srv (timeout); nothing saved."
        ),
        ("%2$s refusé par %1$s", ["srv", "la clé"], "la clé refusé par srv"),
        ("HTTP %d", ["429"], "HTTP 429"),
        ("100%% %s", ["sûr"], "100% sûr"),
        ("%s et %s", ["un"], "un et %s"),
        ("%9$s", ["un"], "%9$s"),
        ("fin %", [], "fin %"),
        ("%x %s", ["v"], "%x v"),
    ])
    func fill(template: String, values: [String], expected: String) {
        #expect(TextTemplate.fill(template, values) == expected)
    }
}
