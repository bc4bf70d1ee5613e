import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct BannerTextTests {
    @Test(arguments: [
        (0, "00:00"), (59, "00:59"), (60, "01:00"), (3599, "59:59"), (3600, "1:00:00"), (3661, "1:01:01"),
        (36000, "10:00:00"), (-5, "00:00"),
    ])
    func durationFormat(seconds: Int, expected: String) {
        #expect(BannerText.duration(seconds) == expected)
    }

    @Test func controlCharactersNewlinesAndBidiOverridesAreRemoved() {
        #expect(BannerText.label("Bob\nSmith") == "Bob Smith")
        #expect(BannerText.label("A\u{0}B\u{7}C") == "ABC")
        #expect(BannerText.label("evil\u{202E}gnp.exe") == "evilgnp.exe")
        #expect(BannerText.label("x\u{2066}y\u{2069}z\u{200B}") == "xyz")
        #expect(BannerText.label("  lots   of\t\tspace  ") == "lots of space")
    }

    @Test func emptyOrInvisibleLabelsFallBack() {
        #expect(BannerText.label("") == "Relavoi call")
        #expect(BannerText.label("\u{202E}\n\t ") == "Relavoi call")
    }

    @Test func longLabelsAreCutWithAnEllipsis() {
        let label = BannerText.label(String(repeating: "x", count: 10_000))
        #expect(label.count == BannerText.maximumLabelLength)
        #expect(label.hasSuffix("…"))
    }

    @Test func labelsCannotPoseAsTheVerifiedBadge() {
        #expect(BannerText.label("✔ Verified") == "“Verified”")
        #expect(BannerText.label("✅ Bank") == "Bank")
        #expect(BannerText.label("ＶＥＲＩＦＩＥＤ caller").hasPrefix("“"))
    }

    /// Plain ASCII takes a shortcut past the scalar walk: it must clean and quote alike.
    @Test func asciiLabelsAreCleanedAndQuotedLikeAnyOther() {
        #expect(BannerText.label("Chowdeck rider") == "Chowdeck rider")
        #expect(BannerText.label("+234 800 000 0001") == "+234 800 000 0001")
        #expect(BannerText.label("VERIFIED Bank") == "“VERIFIED Bank”")
        #expect(BannerText.label("Unverif") == "“Unverif”")
        #expect(BannerText.label("A  B") == "A B")
        #expect(BannerText.label(" lead") == "lead")
        #expect(BannerText.label("trail ") == "trail")
        #expect(BannerText.label("a\u{7F}b") == "ab")
        #expect(BannerText.label(String(repeating: "y", count: 500)).count == BannerText.maximumLabelLength)
        #expect("VeRiF".containsFolded("verif"))
        #expect(!"ver if".containsFolded("verif"))
        #expect(!"".containsFolded("verif"))
    }

    @Test func markupIsEscaped() {
        #expect(
            BannerText.escapeMarkup("<b>x</b> & 'y' \"z\"") == "&lt;b&gt;x&lt;/b&gt; &amp; &#39;y&#39; &quot;z&quot;")
    }
}
