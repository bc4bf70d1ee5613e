import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct StreamJSONParserTests {
    @Test func numbers() throws {
        #expect(try JSONValue.parse("0") == .int(0))
        #expect(try JSONValue.parse("-0") == .int(0))
        #expect(try JSONValue.parse("42") == .int(42))
        #expect(try JSONValue.parse("-42") == .int(-42))
        #expect(try JSONValue.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSONValue.parse("-9223372036854775808") == .int(Int.min))
        #expect(try JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("1.5") == .double(1.5))
        #expect(try JSONValue.parse("-2.5e3") == .double(-2500))
        #expect(try JSONValue.parse("1E-2") == .double(0.01))
    }

    @Test func stringsAndEscapes() throws {
        #expect(try JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        #expect(try JSONValue.parse(#""\u00e9\u20ac\ud83d\ude00""#) == .string("é€😀"))
        #expect(try JSONValue.parse(#""\ud83d""#) == .string("\u{FFFD}"), "lone high surrogate")
        #expect(try JSONValue.parse(#""\ude00x""#) == .string("\u{FFFD}x"), "lone low surrogate")
        #expect(try JSONValue.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONValue.parse("\"Zoë 🚲\"") == .string("Zoë 🚲"))
    }

    @Test func containersWhitespaceAndDuplicates() throws {
        #expect(
            try JSONValue.parse(" \n\t{ \"a\" : [ 1 , { } , [ ] , null , true , false ] , \"a\" : 2 }\r\n")
                == .object(["a": .int(2)]))
        #expect(try JSONValue.parse("[]") == .array([]))
        #expect(try JSONValue.parse("{}") == .object([:]))
    }

    @Test(arguments: [
        "", " ", "[", "[1,]", "{\"a\"}", "{\"a\":}", "nul", "[1 2]", "\"abc", "{} {}", "+1", ".5", "0x10",
    ])
    func invalidDocuments(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
    }

    @Test func roundTripsThroughJSONEncoderShape() throws {
        let value: JSONValue = .object([
            "s": .string("x"), "i": .int(-3), "d": .double(0.25), "b": .bool(true), "n": .null,
            "a": .array([.int(1), .object(["k": .string("v")])]),
        ])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValue.parse(utf8: Array(data)) == value)
    }
}

@Suite struct StreamDeduplicatorTests {
    func offer(_ dedupe: inout EventDeduplicator, _ id: String?) -> Bool { dedupe.shouldDeliver(id: id) }

    @Test func repeatsAreDroppedAndEmptyIdsAlwaysPass() {
        var dedupe = EventDeduplicator(capacity: 8)
        #expect(offer(&dedupe, "1-0"))
        #expect(!offer(&dedupe, "1-0"))
        #expect(offer(&dedupe, "1-1"))
        #expect(offer(&dedupe, nil))
        #expect(offer(&dedupe, nil))
        #expect(offer(&dedupe, ""))
        #expect(offer(&dedupe, ""))
        #expect(dedupe.count == 2)
    }

    @Test func memoryIsBoundedAndTheOldestIdIsForgotten() {
        var dedupe = EventDeduplicator(capacity: 4096)
        for i in 0..<100_000 { #expect(offer(&dedupe, "id-\(i)")) }
        #expect(dedupe.count == 4096)
        #expect(!offer(&dedupe, "id-99999"), "recent ids are remembered")
        #expect(!offer(&dedupe, "id-95904"), "the oldest remembered id")
        #expect(offer(&dedupe, "id-95903"), "one older is forgotten")
        #expect(dedupe.count == 4096)
    }
}

/// A scripted random source.
final class ScriptedRandom: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double]
    init(_ values: [Double]) { self.values = values }
    var source: Backoff.RandomSource {
        { [self] in
            lock.withLock {
                values.isEmpty ? 0 : values.removeFirst()
            }
        }
    }
}

@Suite struct BackoffTests {
    func next(_ backoff: inout Backoff) -> Double { backoff.nextDelay() }

    @Test func halfSecondDoublingToThirtySecondCapWithoutJitterDraw() {
        var backoff = Backoff(base: 0.5, cap: 30, jitter: 0.2, random: { 0 })
        let delays = (0..<10).map { _ in backoff.nextDelay() }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30])
    }

    @Test func jitterOnlyShortensWithinTheFraction() {
        var backoff = Backoff(base: 0.5, cap: 30, jitter: 0.2, random: ScriptedRandom([1, 0.5, 0.25, 0.999]).source)
        #expect(abs(next(&backoff) - 0.4) < 1e-9)
        #expect(abs(next(&backoff) - 0.9) < 1e-9)
        #expect(abs(next(&backoff) - 1.9) < 1e-9)
        #expect(abs(next(&backoff) - 4 * (1 - 0.2 * 0.999)) < 1e-9)
    }

    @Test func randomSourceOutOfRangeIsClamped() {
        var backoff = Backoff(base: 1, cap: 8, jitter: 0.5, random: ScriptedRandom([-3, 7]).source)
        #expect(next(&backoff) == 1)
        #expect(next(&backoff) == 1)  // 2 * (1 - 0.5)
    }

    @Test func resetStartsAgainFromBase() {
        var backoff = Backoff(base: 0.5, cap: 30, jitter: 0, random: { 0.7 })
        for _ in 0..<5 { _ = backoff.nextDelay() }
        backoff.reset()
        #expect(next(&backoff) == 0.5)
        #expect(backoff.failures == 1)
    }

    @Test func manyFailuresNeverOverflow() {
        var backoff = Backoff(base: 0.5, cap: 30, jitter: 0, random: { 0 })
        for _ in 0..<10_000 { #expect(next(&backoff) <= 30) }
        #expect(backoff.nominalDelay(attempt: Int.max) == 30)
    }
}

@Suite struct StreamTokenScheduleTests {
    struct Admit: Equatable {
        let log: Bool
        let suppressed: Int
    }
    func admit(_ throttle: inout LogThrottle, _ now: Double) -> Admit {
        let (log, suppressed) = throttle.admit(now: now)
        return Admit(log: log, suppressed: suppressed)
    }

    @Test func refreshesSixtySecondsBeforeExpiryOrHalfWayForShortTokens() {
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 900) == 840)
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 120) == 60)
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 10) == 5)
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 1) == 1, "never sooner than the minimum")
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 0) == 1)
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: .nan) == 1)
        #expect(TokenRefreshSchedule.refreshDelay(expiresIn: 900, lead: 120) == 780)
    }

    @Test func tokenUsabilityAndRedaction() {
        let token = AccessToken(value: "eyJhbGciOi.secret.sig", obtainedAt: 100, expiresIn: 900)
        #expect(token.expiresAt == 1000)
        #expect(token.refreshAt == 940)
        #expect(token.isUsable(at: 900, margin: 30))
        #expect(!token.isUsable(at: 975, margin: 30))
        #expect(!String(describing: token).contains("eyJ"))
    }

    @Test func logThrottleLetsAFewLinesThroughPerWindowAndCountsTheRest() {
        var throttle = LogThrottle(limit: 2, window: 60)
        #expect(admit(&throttle, 0) == Admit(log: true, suppressed: 0))
        #expect(admit(&throttle, 1) == Admit(log: true, suppressed: 0))
        #expect(admit(&throttle, 2) == Admit(log: false, suppressed: 0))
        #expect(admit(&throttle, 3) == Admit(log: false, suppressed: 0))
        #expect(admit(&throttle, 61) == Admit(log: true, suppressed: 2))
        #expect(admit(&throttle, 62) == Admit(log: true, suppressed: 0))
    }
}

@Suite struct StreamEndpointTests {
    @Test(arguments: [
        ("https://api.relavoi.com/v1", "wss://api.relavoi.com/ws"),
        ("https://api.relavoi.com/v1/", "wss://api.relavoi.com/ws"),
        ("https://api.relavoi.com", "wss://api.relavoi.com/ws"),
        ("http://127.0.0.1:8080/v1", "ws://127.0.0.1:8080/ws"),
        ("https://api.relavoi.com:8443/deep/v1?region=eu#frag", "wss://api.relavoi.com:8443/ws"),
        ("HTTPS://API.relavoi.com/v1", "wss://API.relavoi.com/ws"),
        ("http://user:pw@localhost:9/v1", "ws://localhost:9/ws"),
        ("http://[::1]:8080/v1", "ws://[::1]:8080/ws"),
    ])
    func webSocketURLIsDerivedFromTheBaseURL(base: String, expected: String) {
        #expect(StreamEndpoint.webSocketURL(fromBase: URL(string: base)!).absoluteString == expected)
    }

    @Test func tokenIsAddedToTheQuery() {
        #expect(
            StreamEndpoint.withToken(URL(string: "wss://api.relavoi.com/ws")!, token: "a.b-c_d")
                == "wss://api.relavoi.com/ws?token=a.b-c_d")
        #expect(
            StreamEndpoint.withToken(URL(string: "ws://127.0.0.1:9/ws?v=2")!, token: "a+b/c=")
                == "ws://127.0.0.1:9/ws?v=2&token=a%2Bb%2Fc%3D")
    }

    @Test func restURLs() {
        let base = URL(string: "https://api.relavoi.com/v1")!
        #expect(StreamEndpoint.restURL(base: base, path: "/sessions/abc") == "https://api.relavoi.com/v1/sessions/abc")
        #expect(
            StreamEndpoint.restURL(base: URL(string: "https://h/v1/")!, path: "auth/token") == "https://h/v1/auth/token"
        )
        #expect(
            StreamEndpoint.restURL(base: base, path: "sessions/verify", query: ["userPhone": "+4915100000001"])
                == "https://api.relavoi.com/v1/sessions/verify?userPhone=%2B4915100000001")
        #expect(
            StreamEndpoint.restURL(
                base: base, path: "sessions", query: ["state": "ACTIVE", "limit": "100", "after": "a b&c"])
                == "https://api.relavoi.com/v1/sessions?after=a%20b%26c&limit=100&state=ACTIVE")
        #expect(StreamEndpoint.restURL(base: base, path: "sessions/a b") == "https://api.relavoi.com/v1/sessions/a%20b")
        #expect(
            StreamEndpoint.restURL(base: base, path: "sessions/a%20b") == "https://api.relavoi.com/v1/sessions/a%20b")
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.255.255.254", true), ("127.0.0.53", true), ("localhost", true),
        ("LOCALHOST.", true), ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
        ("128.0.0.1", false), ("10.0.0.1", false), ("127.0.0.1.evil.com", false), ("localhost.evil.com", false),
        ("evil-localhost", false), ("0x7f.0.0.1", false), ("127.1", false), ("2130706433", false),
        ("0177.0.0.1", false), ("127.0.0.256", false), ("::2", false), ("::ffff:10.0.0.1", false), ("::", false),
        ("fe80::1%lo", false), ("", false), ("api.relavoi.com", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(StreamEndpoint.isLoopbackHost(host) == loopback)
    }

    @Test(arguments: [
        ("wss://api.relavoi.com/ws", true), ("https://api.relavoi.com/v1", true), ("wss://10.0.0.5/ws", true),
        ("ws://127.0.0.1:9/ws", true), ("http://localhost:8080/v1", true), ("ws://[::1]:9/ws", true),
        ("ws://api.relavoi.com/ws", false), ("http://api.relavoi.com/v1", false), ("ws://10.0.0.5/ws", false),
        ("http://127.0.0.1.nip.io/v1", false), ("ftp://127.0.0.1/", false), ("file:///tmp/x", false),
    ])
    func transportPolicy(url: String, allowed: Bool) {
        let check = { try StreamEndpoint.checkTransport(URL(string: url)!) }
        if allowed {
            #expect(throws: Never.self, performing: check)
        } else {
            #expect(throws: InsecureURLError.self, performing: check)
        }
    }

    @Test func refusalExplainsAndNeverShowsTheQuery() {
        do {
            try StreamEndpoint.checkTransport(URL(string: "ws://api.relavoi.com/ws?token=eyJsecret")!)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("ws://api.relavoi.com/ws"))
            #expect(error.description.contains("loopback"))
            #expect(!error.description.contains("eyJsecret"))
        }
        #expect(StreamEndpoint.redacted(URL(string: "wss://u:p@h/ws?token=abc")!) == "wss://h/ws")
    }
}
