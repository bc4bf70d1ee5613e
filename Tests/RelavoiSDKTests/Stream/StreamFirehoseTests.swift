import Foundation
import RelavoiGLib
import RelavoiSandboxKit
import XCTest

@testable import RelavoiSDK

/// A busy tenant: many events a second, nearly all for other sessions.
final class StreamFirehoseTests: StreamTestCase {
    func testFirehoseOfIrrelevantSessionsKeepsUp() {
        withStream { server, relavoi, _ in
            let events = relavoi.events
            var mine = 0
            var total = 0
            events.addListener("agent") { event in
                total += 1
                if case .callAnswered("mine", _) = event { mine += 1 }
            }
            try awaitOnLoop { await events.connect() }
            let count = 20_000
            var frames: [String] = []
            frames.reserveCapacity(count)
            for i in 0..<count {
                let session = i % 1000 == 0 ? "mine" : "other-\(i)"
                let type = ["call.answered", "call.ended", "session.created", "sms.received", "call.missed"][i % 5]
                frames.append(
                    #"{"type":"\#(type)","payload":{"tenantId":"\#(server.options.tenantId)","sessionId":"\#(session)","proxyNumber":"+4915100000000","cpaasSessionId":"cp-\#(i)","durationSeconds":12,"timestamp":"2026-07-15T12:14:59.758Z"},"id":"1718000000000-\#(i)"}"#
                )
            }
            let started = Date()
            for frame in frames { server.send(text: frame) }
            XCTAssertTrue(loopUntil(timeout: 60) { total == count })
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(mine, count / 1000)
            XCTAssertEqual(events.malformedFrames, 0)
            // Includes the in-process server's own sending; the decoder alone is far faster.
            print(
                "firehose: \(count) frames end to end in \(String(format: "%.2f", seconds)) s = \(Int(Double(count) / seconds)) frames/s"
            )
            XCTAssertGreaterThan(Double(count) / seconds, 2_000)
        }
    }
}
