import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// 2026-07-15T12:14:59.758Z
let fixtureTime = Date(timeIntervalSince1970: 1_784_117_699.758)
let fixtureTimeText = "2026-07-15T12:14:59.758Z"
let tenant = "5a4d0000-0000-4000-8000-00000000c0de"

/// One row per event type: the type, its fields (without time and tenant)
/// and the event both shapes must decode to.
struct EventFixture: CustomTestStringConvertible, Sendable {
    let type: String
    let fields: String
    let expected: RelavoiEvent
    var testDescription: String { type }
}

let eventFixtures: [EventFixture] = [
    EventFixture(
        type: "session.created",
        fields:
            #""sessionId":"s-1","proxyNumber":"+4915100000001","directionMode":"BIDIRECTIONAL","recordingEnabled":false"#,
        expected: .sessionCreated(sessionId: "s-1", proxyNumber: "+4915100000001", ts: fixtureTime)),
    EventFixture(
        type: "session.activated", fields: #""sessionId":"s-2""#,
        expected: .sessionActivated(sessionId: "s-2", ts: fixtureTime)),
    EventFixture(
        type: "session.expired", fields: #""sessionId":"s-3","proxyNumber":"+4915100000003""#,
        expected: .sessionExpired(sessionId: "s-3", ts: fixtureTime)),
    EventFixture(
        type: "call.incoming", fields: #""sessionId":"s-4","proxyNumber":"+4915100000004""#,
        expected: .callIncoming(sessionId: "s-4", callerNumber: "+4915100000004", ts: fixtureTime)),
    EventFixture(
        type: "call.answered", fields: #""sessionId":"s-5","cpaasSessionId":"cp-5""#,
        expected: .callAnswered(sessionId: "s-5", ts: fixtureTime)),
    EventFixture(
        type: "call.ended", fields: #""sessionId":"s-6","cpaasSessionId":"cp-6","durationSeconds":73"#,
        expected: .callEnded(sessionId: "s-6", durationSeconds: 73, ts: fixtureTime)),
    EventFixture(
        type: "sms.received", fields: #""sessionId":"s-7","smsRecordId":"sms-7""#,
        expected: .smsReceived(sessionId: "s-7", ts: fixtureTime)),
]

func envelope(_ type: String, _ fields: String, id: String? = "1718000000000-0", time: String = fixtureTimeText)
    -> String
{
    let idPart = id.map { #","id":"\#($0)""# } ?? ""
    return #"{"type":"\#(type)","payload":{"tenantId":"\#(tenant)",\#(fields),"timestamp":"\#(time)"}\#(idPart)}"#
}

func flat(_ type: String, _ fields: String, time: String = fixtureTimeText) -> String {
    #"{"type":"\#(type)","tenantId":"\#(tenant)",\#(fields),"ts":"\#(time)"}"#
}

@Suite struct FrameDecoderTests {
    let decoder = FrameDecoder()

    @Test(arguments: eventFixtures)
    func envelopeShapeDecodesWithId(_ fixture: EventFixture) throws {
        let frame = try decoder.decode(envelope(fixture.type, fixture.fields, id: "1718000000000-7"))
        #expect(frame == .event(fixture.expected, id: "1718000000000-7"))
    }

    @Test(arguments: eventFixtures)
    func flatShapeDecodesWithoutId(_ fixture: EventFixture) throws {
        let frame = try decoder.decode(flat(fixture.type, fixture.fields))
        #expect(frame == .event(fixture.expected, id: nil))
    }

    @Test(arguments: eventFixtures)
    func bytesAndStringEntryPointsAgree(_ fixture: EventFixture) throws {
        let text = envelope(fixture.type, fixture.fields)
        #expect(try decoder.decode(utf8: Array(text.utf8)) == decoder.decode(text))
    }

    @Test func flatFrameMayCarryTimestampInsteadOfTs() throws {
        let text = #"{"type":"call.answered","sessionId":"s","timestamp":"\#(fixtureTimeText)"}"#
        #expect(try decoder.decode(text) == .event(.callAnswered(sessionId: "s", ts: fixtureTime), id: nil))
    }

    @Test func envelopeMayCarryTsInsteadOfTimestamp() throws {
        let text = #"{"type":"call.answered","payload":{"sessionId":"s","ts":"\#(fixtureTimeText)"},"id":"1-0"}"#
        #expect(try decoder.decode(text) == .event(.callAnswered(sessionId: "s", ts: fixtureTime), id: "1-0"))
    }

    @Test(arguments: [
        ("2026-07-15T12:14:59Z", 1_784_117_699.0),
        ("2026-07-15T12:14:59.758Z", 1_784_117_699.758),
        ("2026-07-15T12:14:59.758123456Z", 1_784_117_699.758123456),
        ("2026-07-15T14:14:59.758+02:00", 1_784_117_699.758),
        ("2026-07-15T07:14:59.758-0500", 1_784_117_699.758),
        ("2026-07-15T12:14:59.758", 1_784_117_699.758),
        ("1970-01-01T00:00:00Z", 0),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
    ])
    func timestampsWithAndWithoutFractionalSeconds(text: String, epoch: Double) throws {
        let frame = try decoder.decode(envelope("call.answered", #""sessionId":"s""#, time: text))
        guard case .event(.callAnswered(_, let ts), _) = frame else {
            Issue.record("not decoded: \(frame)")
            return
        }
        #expect(abs(ts.timeIntervalSince1970 - epoch) < 0.000_01)
    }

    @Test func timestampsAgreeWithFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in stride(from: 0.0, to: 4_000_000_000, by: 86_400 * 97.3 + 0.125) {
            let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
            let parsed = ISO8601Timestamp.parse(text)
            #expect(parsed.map { abs($0.timeIntervalSince1970 - seconds) < 0.001 } == true, "\(text)")
        }
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-07-15T24:00:00Z",
        "2026-07-15T12:60:00Z", "2026-07-15", "2026-07-15T12:14:59.Z", "2026-07-15T12:14:59ZZ", "yesterday",
        "", "2026-07-15T12:14:59+25:00", "2026-7-15T12:14:59Z",
    ])
    func invalidTimestampsAreRejected(_ text: String) {
        #expect(ISO8601Timestamp.parse(text) == nil)
        #expect(throws: FrameDecodeError.self) {
            try decoder.decode(envelope("call.answered", #""sessionId":"s""#, time: text))
        }
    }

    @Test func callIncomingPrefersCallerNumberAndFallsBackToProxyNumber() throws {
        let withCaller = envelope("call.incoming", #""sessionId":"s","proxyNumber":"+1000","callerNumber":"+2000""#)
        #expect(
            try decoder.decode(withCaller)
                == .event(.callIncoming(sessionId: "s", callerNumber: "+2000", ts: fixtureTime), id: "1718000000000-0"))
        let nullCaller = envelope("call.incoming", #""sessionId":"s","proxyNumber":"+1000","callerNumber":null"#)
        #expect(
            try decoder.decode(nullCaller)
                == .event(.callIncoming(sessionId: "s", callerNumber: "+1000", ts: fixtureTime), id: "1718000000000-0"))
        #expect(throws: FrameDecodeError.self) {
            try decoder.decode(envelope("call.incoming", #""sessionId":"s""#))
        }
    }

    @Test func missingDurationIsZeroAndFractionalDurationRounds() throws {
        #expect(
            try decoder.decode(flat("call.ended", #""sessionId":"s""#))
                == .event(.callEnded(sessionId: "s", durationSeconds: 0, ts: fixtureTime), id: nil))
        #expect(
            try decoder.decode(flat("call.ended", #""sessionId":"s","durationSeconds":null"#))
                == .event(.callEnded(sessionId: "s", durationSeconds: 0, ts: fixtureTime), id: nil))
        #expect(
            try decoder.decode(flat("call.ended", #""sessionId":"s","durationSeconds":12.6"#))
                == .event(.callEnded(sessionId: "s", durationSeconds: 13, ts: fixtureTime), id: nil))
    }

    @Test(arguments: ["call.failed", "call.missed", "sms.sent", "pool.low_availability", "brand.new-thing"])
    func unknownTypesKeepTheWholeFrame(_ type: String) throws {
        let text = envelope(type, #""sessionId":"s","cpaasSessionId":"cp","extra":{"nested":[1,2.5,true,null]}"#)
        let frame = try decoder.decode(text)
        #expect(frame == .event(.unknown(type: type, payload: try JSONValue.parse(text)), id: "1718000000000-0"))
    }

    @Test func unknownTypesNeedNoFields() throws {
        #expect(
            try decoder.decode(#"{"type":"x"}"#)
                == .event(.unknown(type: "x", payload: .object(["type": .string("x")])), id: nil))
        let odd = #"{"type":"x","payload":"not an object"}"#
        #expect(try decoder.decode(odd) == .event(.unknown(type: "x", payload: try JSONValue.parse(odd)), id: nil))
    }

    @Test func connectedAndPongAreNotEvents() throws {
        #expect(
            try decoder.decode(#"{"type":"connected","tenantId":"\#(tenant)","at":1718000000000}"#)
                == .connected(tenantId: tenant, at: Date(timeIntervalSince1970: 1_718_000_000)))
        #expect(try decoder.decode(#"{"type":"connected"}"#) == .connected(tenantId: nil, at: nil))
        #expect(try decoder.decode("pong") == .pong)
        #expect(try decoder.decode(#"{"type":"pong"}"#) == .pong)
    }

    @Test func emptyIdMeansNoId() throws {
        let frame = try decoder.decode(envelope("call.answered", #""sessionId":"s""#, id: ""))
        #expect(frame == .event(.callAnswered(sessionId: "s", ts: fixtureTime), id: nil))
        let numericId =
            #"{"type":"call.answered","payload":{"sessionId":"s","timestamp":"\#(fixtureTimeText)"},"id":5}"#
        #expect(try decoder.decode(numericId) == .event(.callAnswered(sessionId: "s", ts: fixtureTime), id: nil))
    }

    /// Each malformed frame: the frame and a fragment its error must mention.
    static let malformed: [(String, String)] = [
        ("", "unexpected end"),
        ("ping", "invalid"),
        ("{", "expected a key"),
        (#"{"type":"call.answered""#, "unexpected end"),
        (#"{"type":"call.answered",}"#, "expected a key"),
        (#"{'type':'x'}"#, "expected a key"),
        (#"{"type":"x"} trailing"#, "after the document"),
        ("[]", "not a JSON object"),
        (#""call.answered""#, "not a JSON object"),
        ("42", "not a JSON object"),
        ("null", "not a JSON object"),
        (#"{"payload":{}}"#, "\"type\" missing"),
        (#"{"type":7}"#, "\"type\" is not a non-empty string"),
        (#"{"type":""}"#, "\"type\" is not a non-empty string"),
        (envelope("call.answered", #""other":"s""#), "\"sessionId\" missing"),
        (envelope("call.answered", #""sessionId":42"#), "\"sessionId\" is not a string"),
        (envelope("call.answered", #""sessionId":"""#), "\"sessionId\" is empty"),
        (envelope("session.created", #""sessionId":"s""#), "\"proxyNumber\" missing"),
        (envelope("session.created", #""sessionId":"s","proxyNumber":["+1"]"#), "\"proxyNumber\" is not a string"),
        (envelope("call.ended", #""sessionId":"s","durationSeconds":"12""#), "\"durationSeconds\" is not a number"),
        (envelope("call.ended", #""sessionId":"s","durationSeconds":-1"#), "negative"),
        (envelope("call.incoming", #""sessionId":"s","callerNumber":5"#), "\"callerNumber\" is not a string"),
        (#"{"type":"call.answered","payload":{"sessionId":"s"},"id":"9-9"}"#, "\"timestamp\" missing"),
        (
            #"{"type":"call.answered","payload":{"sessionId":"s","timestamp":1718000000000}}"#,
            "\"timestamp\" is not a string"
        ),
        (#"{"type":"call.answered","payload":"s"}"#, "\"payload\" is not an object"),
        (#"{"type":"call.answered","payload":[1]}"#, "\"payload\" is not an object"),
        ("{\"type\":\"x\u{01}\"}", "control character"),
        (#"{"type":"x\q"}"#, "invalid escape"),
        (#"{"type":"\u12"}"#, "\\u escape"),
        (#"{"n":01}"#, "expected ','"),
        (#"{"n":1.}"#, "invalid number"),
        (#"{"n":-}"#, "invalid number"),
        (#"{"n":1e}"#, "invalid number"),
        (#"{"n":1e999}"#, "out of range"),
        (#"{"n":tru}"#, "invalid literal"),
    ]

    @Test(arguments: malformed)
    func malformedFramesThrowOneClearError(frame: String, mentions: String) {
        do {
            let decoded = try decoder.decode(frame)
            Issue.record("decoded \(frame) as \(decoded)")
        } catch {
            #expect(error.description.contains(mentions), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func errorsNameTypeAndIdButNeverFieldValues() {
        let frame = envelope("session.created", #""sessionId":"s","proxyNumber":4915100000001"#, id: "77-1")
        #expect(
            throws: FrameDecodeError(type: "session.created", id: "77-1", reason: "\"proxyNumber\" is not a string")
        ) {
            try decoder.decode(frame)
        }
        do {
            _ = try decoder.decode(envelope("session.created", #""sessionId":"+4915100000001""#))
        } catch {
            #expect(!error.description.contains("4915100000001"))
        }
    }

    @Test func invalidUTF8IsRefused() {
        let prefix = Array(#"{"type":"call.answered","payload":{"sessionId":""#.utf8)
        let suffix = Array(#"","timestamp":"2026-07-15T12:14:59Z"}}"#.utf8)
        for bad: [UInt8] in [
            [0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC0, 0xAF],
        ] {
            #expect(throws: FrameDecodeError.self) { try decoder.decode(utf8: prefix + bad + suffix) }
        }
        // Outside strings too.
        #expect(throws: FrameDecodeError.self) { try decoder.decode(utf8: [0x7B, 0xFF, 0x7D]) }
        // Valid multi-byte text passes, escaped or not.
        let ok = #"{"type":"x","label":"Zoë 🚲","escaped":"\u00eb\ud83d\udeb2"}"#
        #expect(throws: Never.self) { try decoder.decode(ok) }
    }

    @Test func deepNestingIsRefusedWithoutRecursingFurther() {
        for depth in [33, 1_000, 200_000] {
            let text =
                #"{"type":"x","deep":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                + "}"
            do {
                _ = try decoder.decode(text)
                Issue.record("depth \(depth) accepted")
            } catch {
                #expect(error.description.contains("nested too deeply"))
            }
        }
        let fine = #"{"type":"x","deep":"# + String(repeating: "[", count: 30) + String(repeating: "]", count: 30) + "}"
        #expect(throws: Never.self) { try decoder.decode(fine) }
    }

    @Test func truncatedFramesNeverCrash() throws {
        let full = envelope("call.ended", #""sessionId":"s","durationSeconds":5,"x":"\u00e9\ud83d\ude00""#)
        let bytes = Array(full.utf8)
        for cut in 0..<bytes.count {
            _ = try? decoder.decode(utf8: Array(bytes[0..<cut]))
        }
        #expect(
            try decoder.decode(utf8: bytes)
                == .event(.callEnded(sessionId: "s", durationSeconds: 5, ts: fixtureTime), id: "1718000000000-0"))
    }
}
