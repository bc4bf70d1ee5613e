import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

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

    @Test func atMostCapacitySessionsAreKeptTheLatest() throws {
        var pages = try Self.pagesNamingMetadata()
        let total = SessionPages.capacity * 2 + 1
        for i in 0..<total { pages.remember(metadata: ["k": .int(i)], of: "s\(i)") }
        #expect(pages.count == SessionPages.capacity)
        #expect(
            Self.withPages(pages, among: (0..<total).map { "s\($0)" })
                == Self.ids(total - SessionPages.capacity..<total))
        #expect(pages.url(of: "s\(total - 1)") == "https://x.test/\(total - 1)")
    }

    /// A 257th session's page drops only the page built longest ago: the calls shown before keep theirs.
    @Test func theNextSessionEvictsOnlyTheOldest() throws {
        var pages = try Self.pagesNamingMetadata()
        let capacity = SessionPages.capacity
        for i in 0..<capacity { pages.remember(metadata: ["k": .int(i)], of: "s\(i)") }
        pages.remember(metadata: ["k": .int(capacity)], of: "s\(capacity)")
        #expect(pages.count == capacity)
        #expect(!pages.canOpen("s0") && pages.url(of: "s0") == nil, "the oldest goes")
        #expect(Self.withPages(pages, among: Self.ids(0...capacity)) == Self.ids(1...capacity))
        #expect(
            pages.url(of: "s1") == "https://x.test/1"
                && pages.url(of: "s\(capacity - 1)") == "https://x.test/\(capacity - 1)")
        pages.remember(metadata: ["k": .int(capacity + 1)], of: "s\(capacity + 1)")
        #expect(
            Self.withPages(pages, among: Self.ids(0...capacity + 1)) == Self.ids(2...capacity + 1),
            "then the next oldest")
    }

    /// Metadata arriving again for a kept session updates its page in place: no eviction, and it keeps its place.
    @Test func rememberingAgainKeepsTheSessionsPlace() throws {
        var pages = try Self.pagesNamingMetadata()
        let capacity = SessionPages.capacity
        for i in 0..<capacity { pages.remember(metadata: ["k": .int(i)], of: "s\(i)") }
        pages.remember(metadata: ["k": .string("new")], of: "s0")
        #expect(pages.count == capacity && pages.url(of: "s0") == "https://x.test/new")
        pages.remember(metadata: ["k": .int(capacity)], of: "s\(capacity)")
        #expect(Self.withPages(pages, among: Self.ids(0...capacity)) == Self.ids(1...capacity))
    }

    /// A session forgotten (its banner closed) and shown again is evicted by its new place, not by the old one.
    @Test func aSessionForgottenAndRememberedAgainIsEvictedByItsNewPlace() throws {
        var pages = try Self.pagesNamingMetadata()
        let capacity = SessionPages.capacity
        pages.remember(metadata: ["k": .string("first")], of: "a")
        pages.forget("a")
        for i in 1..<(capacity - 1) { pages.remember(metadata: ["k": .int(i)], of: "s\(i)") }
        pages.remember(metadata: ["k": .string("again")], of: "a")
        pages.remember(metadata: ["k": .int(capacity - 1)], of: "s\(capacity - 1)")
        #expect(pages.count == capacity)
        pages.remember(metadata: ["k": .int(capacity)], of: "s\(capacity)")  // full: s1, the oldest kept, goes; not a
        #expect(pages.url(of: "a") == "https://x.test/again")
        #expect(!pages.canOpen("s1"))
        #expect(Self.withPages(pages, among: Self.ids(1...capacity)) == Self.ids(2...capacity))
        #expect(pages.count == capacity)
    }

    /// Many calls shown and closed (remember, forget) between long-shown ones: the eviction order
    /// stays right and its bookkeeping bounded.
    @Test func manyShownAndClosedSessionsLeaveTheOrderRight() throws {
        var pages = try Self.pagesNamingMetadata()
        let capacity = SessionPages.capacity
        for i in 0..<100 { pages.remember(metadata: ["k": .int(i)], of: "kept\(i)") }
        for i in 0..<(capacity * 40) {
            pages.remember(metadata: ["k": .int(i)], of: "brief\(i)")
            if i % 3 == 2 { pages.remember(metadata: ["k": .int(i)], of: "brief\(i - 1)") }
            pages.forget("brief\(i)")
            pages.forget("brief\(i - 1)")
        }
        #expect(pages.count == 100)
        for i in 100...capacity { pages.remember(metadata: ["k": .int(i)], of: "kept\(i)") }  // the 257th: kept0 goes
        #expect(pages.count == capacity)
        #expect(Self.withPages(pages, among: (0...capacity).map { "kept\($0)" }) == (1...capacity).map { "kept\($0)" })
    }

    private static func pagesNamingMetadata() throws -> SessionPages {
        SessionPages(template: try OpenURLTemplate(parsing: "https://x.test/{metadata.k}"))
    }

    private static func ids(_ range: some Sequence<Int>) -> [String] { range.map { "s\($0)" } }

    /// Those of `ids` that have a page, in order.
    private static func withPages(_ pages: SessionPages, among ids: [String]) -> [String] {
        ids.filter { pages.canOpen($0) && pages.url(of: $0) != nil }
    }
}
