import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct TextFoldingTests {
    @Test func foldingIgnoresCaseWidthAndDiacritics() {
        for text in ["Verified", "VÉRIFIÉ", "ｖｅｒｉｆｉｅｄ", "ve\u{301}rif", "Vérification"] {
            #expect(text.containsFolded("verif"), "\(text)")
        }
        #expect(!"Very fine".containsFolded("verif"))
        #expect(BannerText.label("Appelant vérifié") == "“Appelant vérifié”")
    }

    @Test func trimmingWhitespace() {
        #expect("  a b \t".trimmingWhitespace() == "a b")
        #expect(" \t ".trimmingWhitespace() == "")
        #expect("x".trimmingWhitespace() == "x")
    }

    @Test func percentDecoding() {
        #expect(PercentEncoding.decode("a%2Bb%20c") == "a+b c")
        #expect(PercentEncoding.decode("%C3%A9") == "é")
        #expect(PercentEncoding.decode("bad%2") == nil)
        #expect(PercentEncoding.decode("bad%zz") == nil)
        #expect(PercentEncoding.decode("%FF") == nil, "not UTF-8")
    }
}
