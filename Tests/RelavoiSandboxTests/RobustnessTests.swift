import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// Keep-alive and hostile input, over bare sockets.
final class RobustnessTests: SandboxTestCase {
    func testServerPingsAndDropsAClientThatNeverAnswers() {
        withSandbox(.init(pingInterval: 1)) { server, client in
            let token = try XCTUnwrap(client.token(from: server))
            let raw = try XCTUnwrap(RawSocket(port: server.port))
            raw.write(RawSocket.upgradeRequest(path: "/ws?token=" + token))
            XCTAssertTrue(raw.wait(timeout: 5) { $0.frames.count >= 1 }, raw.text)
            XCTAssertTrue(raw.text.hasPrefix("HTTP/1.1 101"), raw.text)
            XCTAssertEqual(server.liveClientCount, 1)
            let start = Date()
            // Never read as a WebSocket client would: no pong ever goes back.
            XCTAssertTrue(LoopWait.until(timeout: 8) { server.liveClientCount == 0 }, "not dropped")
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertGreaterThan(elapsed, 1.5, "dropped only after missing pings")
            XCTAssertTrue(raw.wait(timeout: 3) { $0.sawEOF }, "TCP closed")
            let opcodes = raw.frames.map(\.opcode)
            XCTAssertEqual(opcodes.first, 0x1, "welcome text frame")
            XCTAssertGreaterThanOrEqual(opcodes.filter { $0 == 0x9 }.count, 1, "server pings: \(opcodes)")
            XCTAssertFalse(opcodes.contains(0x8), "dropped without a close frame: \(opcodes)")
        }
    }

    func testClientThatAnswersPingsStaysConnected() {
        withSandbox(.init(pingInterval: 1)) { server, client in
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            spin(4.5)  // past the 3 s (2 intervals + 1 s) after which a silent client is dropped
            XCTAssertFalse(socket.isClosed, "closed with \(socket.closeCode)")
            XCTAssertEqual(server.liveClientCount, 1)
        }
    }

    func testGarbageAndHugeRequestsLeaveTheServerServing() {
        withSandbox { server, client in
            let token = try XCTUnwrap(client.token(from: server))
            let hostile: [Data] = [
                Data("garbage\r\n\r\n".utf8),
                Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
                Data(
                    ("GET /v1/sessions HTTP/1.1\r\nX-Huge: " + String(repeating: "a", count: 1 << 20) + "\r\n\r\n").utf8
                ),
                Data("POST /v1/auth/token HTTP/1.1\r\nContent-Length: -5\r\n\r\n".utf8),
                Data("POST /v1/auth/token HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8),
                Data("GET /v1/sessions/%ZZ/../../etc HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
                Data(
                    ("POST /v1/sessions HTTP/1.1\r\nContent-Length: 3000000\r\n\r\n"
                        + String(repeating: "x", count: 3_000_000)).utf8),
            ]
            for bytes in hostile {
                guard let raw = RawSocket(port: server.port) else { return XCTFail("cannot connect") }
                raw.write(bytes)
                raw.wait(timeout: 2) { $0.sawEOF || $0.text.contains("\r\n\r\n") }
            }
            // A WebSocket peer announcing a 2^62-byte frame, then one over the 64 KiB limit.
            for header: [UInt8] in [
                [0x81, 0xFF, 0x40, 0, 0, 0, 0, 0, 0, 0], [0x81, 0xFF, 0, 0, 0, 0, 0, 1, 0x11, 0x70],
            ] {
                guard let raw = RawSocket(port: server.port) else { return XCTFail("cannot connect") }
                raw.write(RawSocket.upgradeRequest(path: "/ws?token=" + token))
                XCTAssertTrue(raw.wait(timeout: 5) { $0.frames.count >= 1 })
                raw.write(Data(header + [1, 2, 3, 4]))
                XCTAssertTrue(raw.wait(timeout: 5) { $0.sawEOF }, "oversized frame closes the socket")
            }
            XCTAssertTrue(LoopWait.until(timeout: 5) { server.liveClientCount == 0 })
            let after = client.request("GET", server.baseURL + "/sessions", bearer: token)
            XCTAssertEqual(after.status, 200, "still serving")
            XCTAssertNotNil(connectedSocket(server, client).map { $0.dispose() })
        }
    }
}
