import Foundation
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiStream
import XCTest

@testable import RelavoiSDK

/// A busy tenant: many events a second, nearly all for other sessions.
final class StreamFirehoseTests: StreamTestCase {
    /// Every frame reaches the listener once, in the order sent, whatever the
    /// machine's speed (the rate is printed, not asserted: the machine is shared).
    func testFirehoseOfIrrelevantSessionsKeepsUp() {
        withStream { server, relavoi, _ in
            let events = relavoi.events
            var received: [String] = []
            events.addListener("agent") { event in received.append(Self.typeAndSession(event)) }
            try awaitOnLoop { await events.connect() }
            let count = 20_000
            let types = ["call.answered", "call.ended", "session.created", "sms.received", "call.missed"]
            var frames: [String] = []
            var expected: [String] = []
            frames.reserveCapacity(count)
            expected.reserveCapacity(count)
            for i in 0..<count {
                let session = i % 1000 == 0 ? "mine" : "other-\(i)"
                let type = types[i % 5]
                frames.append(
                    #"{"type":"\#(type)","payload":{"tenantId":"\#(server.options.tenantId)","sessionId":"\#(session)","proxyNumber":"+4915100000000","cpaasSessionId":"cp-\#(i)","durationSeconds":12,"timestamp":"2026-07-15T12:14:59.758Z"},"id":"1718000000000-\#(i)"}"#
                )
                expected.append("\(type) \(session)")
            }
            let started = Date()
            for frame in frames { server.send(text: frame) }
            XCTAssertTrue(
                loopUntil(timeout: 60) { received.count >= count }, "\(received.count) of \(count) frames arrived")
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(received.count, count, "each frame once")
            if let wrong = zip(received, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                XCTFail("frame \(wrong) arrived as \(received[wrong]), sent as \(expected[wrong])")
            }
            XCTAssertEqual(received.filter { $0 == "call.answered mine" }.count, count / 1000)
            XCTAssertEqual(events.stream.malformedFrames, 0)
            // Includes the in-process server's own sending; the decoder alone is far faster.
            print(
                "firehose: \(count) frames end to end in \(String(format: "%.2f", seconds)) s = \(Int(Double(count) / seconds)) frames/s"
            )
        }
    }

    /// "type sessionId" of an event, as the frame that carried it said.
    static func typeAndSession(_ event: RelavoiEvent) -> String {
        switch event {
        case .callAnswered(let id, _): return "call.answered \(id)"
        case .callEnded(let id, _, _): return "call.ended \(id)"
        case .sessionCreated(let id, _, _): return "session.created \(id)"
        case .smsReceived(let id, _): return "sms.received \(id)"
        case .unknown(let type, let payload):
            return
                "\(type) \(payload["payload"]?["sessionId"]?.stringValue ?? payload["sessionId"]?.stringValue ?? "?")"
        default: return "\(event)"
        }
    }
}
