import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

final class WebSocketTests: SandboxTestCase {
    func testGoodTokenGetsTheWelcomeFrameFirst() {
        withSandbox { server, client in
            var connected: [Int] = []
            server.onClientConnected = { connected.append($0) }
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            let welcome = socket.json.first
            XCTAssertEqual(welcome?["type"], .string("connected"))
            XCTAssertEqual(welcome?["tenantId"], .string(server.options.tenantId))
            guard case .int(let at)? = welcome?["at"] else { return XCTFail("no at in \(socket.messages)") }
            XCTAssertEqual(Double(at) / 1000, Date().timeIntervalSince1970, accuracy: 5, "at is epoch milliseconds")
            XCTAssertEqual(server.liveClientCount, 1)
            XCTAssertEqual(server.handshakeCount, 1)
            XCTAssertEqual(connected, [1])
        }
    }

    func testMissingTokenIsClosedWith4001() {
        withSandbox { server, client in
            guard let socket = client.webSocket(server.webSocketURL) else { return }
            defer { socket.dispose() }
            XCTAssertTrue(socket.waitForClose())
            XCTAssertEqual(socket.closeCode, 4001)
            XCTAssertEqual(socket.closeReason, "token required")
            XCTAssertEqual(socket.messages, [], "no welcome before the close")
            XCTAssertEqual(server.liveClientCount, 0)
        }
    }

    func testInvalidAndExpiredTokensAreClosedWith4003() {
        withSandbox(.init(tokenLifetime: 1)) { server, client in
            let forged = client.webSocket(server.webSocketURL + "?token=eyJhbGciOiJIUzI1NiJ9.e30.AAAA")
            defer { forged?.dispose() }
            XCTAssertEqual(forged?.waitForClose(), true)
            XCTAssertEqual(forged?.closeCode, 4003)
            XCTAssertEqual(forged?.closeReason, "invalid token")

            let token = try XCTUnwrap(client.token(from: server))
            server.expireTokens()
            let revoked = client.webSocket(server.webSocketURL + "?token=" + token)
            defer { revoked?.dispose() }
            XCTAssertEqual(revoked?.waitForClose(), true)
            XCTAssertEqual(revoked?.closeCode, 4003)

            let shortLived = try XCTUnwrap(client.token(from: server))
            spin(1.2)
            let expired = client.webSocket(server.webSocketURL + "?token=" + shortLived)
            defer { expired?.dispose() }
            XCTAssertEqual(expired?.waitForClose(), true)
            XCTAssertEqual(expired?.closeCode, 4003)
            XCTAssertEqual(server.handshakeCount, 3)
            XCTAssertEqual(server.liveClientCount, 0)
        }
    }

    func testTextPingGetsPongUnlessPingsAreOff() {
        withSandbox { server, client in
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            socket.send("ping")
            XCTAssertTrue(socket.waitForMessages(2))
            XCTAssertEqual(socket.messages.last, "pong")
            socket.send("hello")
            socket.send("{\"type\":\"subscribe\"}")
            server.answersPings = false
            let framesBefore = server.framesSent
            socket.send("ping")
            // The server answers (or not) as it records a message: once it has the ping, it has decided.
            XCTAssertTrue(LoopWait.until(timeout: 30) { server.receivedMessages.count == 4 })
            XCTAssertEqual(server.receivedMessages, ["ping", "hello", "{\"type\":\"subscribe\"}", "ping"])
            XCTAssertEqual(server.framesSent, framesBefore, "other messages are ignored; no pong while pings are off")
            server.answersPings = true
            socket.send("ping")
            XCTAssertTrue(socket.waitForMessages(3, timeout: 30))
            XCTAssertEqual(socket.messages, [socket.messages[0], "pong", "pong"])
        }
    }

    func testEnvelopeAndFlatEventsReachEveryLiveClient() {
        withSandbox { server, client in
            guard let first = connectedSocket(server, client), let second = connectedSocket(server, client) else {
                return
            }
            defer {
                first.dispose()
                second.dispose()
            }
            let id = server.sendEvent(type: "call.incoming", payload: ["sessionId": .string("s1")], id: nil)
            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("s1")], id: "")
            server.sendFlatEvent(type: "call.ended", fields: ["sessionId": .string("s1")])
            server.send(text: "not json")
            for socket in [first, second] {
                XCTAssertTrue(socket.waitForMessages(5))
                let frames = socket.json
                XCTAssertEqual(frames[1]["type"], .string("call.incoming"))
                XCTAssertEqual(frames[1]["id"], .string(id))
                XCTAssertNotNil(id.range(of: #"^\d{13}-\d+$"#, options: .regularExpression), id)
                let payload = frames[1]["payload"]
                XCTAssertEqual(payload?["tenantId"], .string(server.options.tenantId))
                let timestamp = try XCTUnwrap(payload?["timestamp"]?.stringValue)
                XCTAssertNotNil(
                    timestamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression),
                    timestamp)
                XCTAssertEqual(frames[2]["id"], .string(""))
                XCTAssertEqual(frames[3]["type"], .string("call.ended"))
                XCTAssertNil(frames[3]["id"])
                XCTAssertNotNil(frames[3]["ts"]?.stringValue)
                XCTAssertEqual(socket.messages[4], "not json")
            }
        }
    }

    func testCloseSendsTheCodeAndDropSendsNoCloseFrame() {
        withSandbox { server, client in
            guard let closed = connectedSocket(server, client) else { return }
            defer { closed.dispose() }
            server.close(code: 4003, reason: "invalid token")
            XCTAssertEqual(server.liveClientCount, 0)
            XCTAssertTrue(closed.waitForClose())
            XCTAssertEqual(closed.closeCode, 4003)
            XCTAssertEqual(closed.closeReason, "invalid token")

            guard let dropped = connectedSocket(server, client) else { return }
            defer { dropped.dispose() }
            XCTAssertEqual(server.liveClientCount, 1)
            server.dropConnections()
            XCTAssertEqual(server.liveClientCount, 0)
            XCTAssertTrue(dropped.waitForClose())
            XCTAssertNotEqual(dropped.closeCode, 4003)
            XCTAssertTrue([0, 1006].contains(dropped.closeCode), "no close frame: \(dropped.closeCode)")
        }
    }

    func testEventsWithoutClientsAreLost() {
        withSandbox { server, client in
            server.sendEvent(type: "call.incoming", payload: ["sessionId": .string("gone")], id: nil)
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            // An event sent now arrives second: nothing came between the welcome and it.
            server.sendEvent(type: "call.incoming", payload: ["sessionId": .string("here")], id: nil)
            XCTAssertTrue(socket.waitForMessages(2, timeout: 30))
            XCTAssertEqual(socket.messages.count, 2, "only the welcome and the new event: no replay")
            XCTAssertTrue(socket.messages[1].contains("here"), socket.messages[1])
        }
    }

    func testStopClosesWith1001AndRestartOnTheSamePortKeepsTokens() {
        withSandbox { server, client in
            var disconnected: [Int] = []
            server.onClientDisconnected = { disconnected.append($0) }
            let token = try XCTUnwrap(client.token(from: server))
            guard let before = client.webSocket(server.webSocketURL + "?token=" + token) else { return }
            defer { before.dispose() }
            XCTAssertTrue(before.waitForMessages(1))
            let port = server.port
            server.stop()
            XCTAssertFalse(server.isListening)
            XCTAssertTrue(before.waitForClose())
            XCTAssertEqual(before.closeCode, 1001)
            XCTAssertEqual(try server.start(port: port), port)
            guard let after = client.webSocket(server.webSocketURL + "?token=" + token) else { return }
            defer { after.dispose() }
            XCTAssertTrue(after.waitForMessages(1))
            XCTAssertEqual(after.json.first?["type"], .string("connected"), "a token survives a restart")
            server.dropConnections()
            XCTAssertEqual(disconnected, [2])
        }
    }
}
