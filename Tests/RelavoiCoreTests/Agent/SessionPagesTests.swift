import Testing

@testable import RelavoiCore

@Suite struct SessionPagesTests {
    @Test func aTemplateNamingMetadataOpensOnceTheMetadataHasTheKey() throws {
        var pages = SessionPages(
            template: try OpenURLTemplate(parsing: "https://x.test/{sessionId}?o={metadata.order}"))
        #expect(!pages.canOpen("s1") && pages.url(of: "s1") == nil, "no metadata yet")
        pages.remember(metadata: ["label": .string("Rider")], of: "s1")
        #expect(!pages.canOpen("s1") && pages.url(of: "s1") == nil, "no order in it")
        pages.remember(metadata: ["order": .string("A 7")], of: "s1")
        #expect(pages.canOpen("s1") && pages.url(of: "s1") == "https://x.test/s1?o=A%207")
        #expect(!pages.canOpen("s2"))
        pages.forget("s1")
        #expect(!pages.canOpen("s1") && pages.url(of: "s1") == nil && pages.count == 0)
    }

    @Test func aTemplateWithoutMetadataOpensEverySession() throws {
        var pages = SessionPages(template: try OpenURLTemplate(parsing: "https://x.test/calls/{sessionId}"))
        #expect(pages.canOpen("ses 1") && pages.url(of: "ses 1") == "https://x.test/calls/ses%201")
        pages.remember(metadata: [:], of: "ses 1")
        #expect(pages.canOpen("ses 1") && pages.url(of: "ses 1") == "https://x.test/calls/ses%201")
    }

    @Test func withoutOpenURLNothingOpensOrIsKept() {
        var pages = SessionPages(template: nil)
        pages.remember(metadata: ["order": .int(1)], of: "s")
        #expect(!pages.canOpen("s") && pages.url(of: "s") == nil && pages.count == 0)
    }

    /// canOpen says what url(of:) would give, whatever the metadata.
    @Test func canOpenAgreesWithTheURL() throws {
        let templates = ["https://x.test/{sessionId}", "https://x.test/{metadata.a}/{metadata.b}", "https://x.test/d"]
        let metadatas: [[String: JSONValue]?] = [
            nil, [:], ["a": .int(1)], ["a": .int(1), "b": .null], ["a": .bool(true), "b": .string("x")],
        ]
        for text in templates {
            for metadata in metadatas {
                var pages = SessionPages(template: try OpenURLTemplate(parsing: text))
                if let metadata { pages.remember(metadata: metadata, of: "s") }
                #expect(
                    pages.canOpen("s") == (pages.url(of: "s") != nil), "\(text) with \(String(describing: metadata))")
            }
        }
    }

    @Test func atMostCapacitySessionsAreKept() throws {
        var pages = SessionPages(template: try OpenURLTemplate(parsing: "https://x.test/{metadata.k}"))
        for i in 0..<(SessionPages.capacity * 2 + 1) { pages.remember(metadata: ["k": .int(i)], of: "s\(i)") }
        #expect(pages.count <= SessionPages.capacity && pages.count > 0)
        #expect(pages.url(of: "s\(SessionPages.capacity * 2)") == "https://x.test/\(SessionPages.capacity * 2)")
    }
}
