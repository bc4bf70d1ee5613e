import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiStream
import XCTest

@testable import RelavoiSDK

/// `Relavoi.shared.events` end to end against the sandbox over loopback.
final class RelavoiStreamTests: StreamTestCase {
    func testWelcomeFrameGatesIsConnected() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            let seen = EventRecorder()
            events.stream.addConnectionStateListener("t") { seen.states.append($0) }
            XCTAssertFalse(try awaitOnLoop { await events.isConnected })
            XCTAssertEqual(events.stream.connectionState, .disconnected)

            try awaitOnLoop { await events.connect() }
            XCTAssertTrue(try awaitOnLoop { await events.isConnected })
            XCTAssertEqual(seen.states, [.connecting, .connected])
            XCTAssertEqual(server.liveClientCount, 1)

            // A socket the server upgrades but then refuses (4003, no welcome) never counts as connected.
            try awaitOnLoop { await events.disconnect() }
            XCTAssertTrue(loopUntil { server.liveClientCount == 0 })
            server.expireTokens()
            server.failTokenRequests = 503
            let handshakes = server.handshakeCount
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(server.handshakeCount, handshakes + 1, "the upgrade itself succeeded")
            XCTAssertFalse(try awaitOnLoop { await events.isConnected }, "no welcome: not connected")
            XCTAssertEqual(events.stream.connectionState, .connecting)
            // A later attempt fails too (the token endpoint answers 503): still not connected.
            let planned = logs.plannedDelays().count
            XCTAssertTrue(loopUntil(timeout: 30) { logs.plannedDelays().count > planned })
            XCTAssertFalse(try awaitOnLoop { await events.isConnected })
            server.failTokenRequests = nil
            XCTAssertTrue(loopUntil { events.stream.connectionState == .connected })
            XCTAssertEqual(seen.states, [.connecting, .connected, .disconnected, .connecting, .connected])
        }
    }

    func testConnectIsIdempotent() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop {
                async let first: Void = events.connect()
                async let second: Void = events.connect()
                _ = await (first, second)
            }
            try awaitOnLoop { await events.connect() }
            try awaitOnLoop { await events.connect() }
            // Every socket the stream opens is logged as it opens: one, so no other handshake can be on its way.
            XCTAssertEqual(logs.count("connecting to"), 1, "\(logs.lines.map(\.1))")
            XCTAssertEqual(server.handshakeCount, 1)
            XCTAssertEqual(server.tokenRequestCount, 1)
            XCTAssertEqual(server.liveClientCount, 1)
            XCTAssertEqual(events.stream.tokenRequestCount, 1)
        }
    }

    func testDisconnectClosesAndStopsReconnecting() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(server.liveClientCount, 1)
            let beforeDisconnect = logs.lines.count
            try awaitOnLoop { await events.disconnect() }
            XCTAssertEqual(events.stream.connectionState, .disconnected)
            XCTAssertFalse(try awaitOnLoop { await events.isConnected })
            // The close went both ways; a reconnect would have been planned (and logged) by now.
            XCTAssertTrue(loopUntil(timeout: 30) { server.liveClientCount == 0 })
            XCTAssertEqual(logs.attempts(from: beforeDisconnect), [], "no reconnect after disconnect()")
            XCTAssertEqual(server.handshakeCount, 1, "no reconnect after disconnect()")
            events.stream.reconnectNow()
            XCTAssertEqual(logs.attempts(from: beforeDisconnect), [], "reconnectNow respects disconnect()")
            XCTAssertEqual(events.stream.connectionState, .disconnected)

            // And connect() works again afterwards.
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(events.stream.connectionState, .connected)
            XCTAssertEqual(server.handshakeCount, 2)
        }
    }

    func testReconnectsWithBackoffAfterADrop() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            let seen = EventRecorder()
            events.stream.addConnectionStateListener("t") { seen.states.append($0) }
            events.addListener("t") { seen.events.append($0) }
            try awaitOnLoop { await events.connect() }

            for round in 1...3 {
                server.dropConnections()
                XCTAssertTrue(
                    loopUntil { server.handshakeCount == round + 1 && events.stream.connectionState == .connected })
                // Read from the plan, not the wall clock (the machine may be busy).
                XCTAssertEqual(logs.count("reconnecting in 0.05 s"), round, "base delay 0.05 s after a live connection")
                server.sendEvent(type: "call.answered", payload: ["sessionId": .string("round-\(round)")])
                XCTAssertTrue(loopUntil { seen.events.count == round })
            }
            XCTAssertEqual(seen.sessionIds, ["round-1", "round-2", "round-3"])
            XCTAssertEqual(
                seen.states,
                [.connecting, .connected, .connecting, .connected, .connecting, .connected, .connecting, .connected])
            XCTAssertEqual(server.tokenRequestCount, 1, "a drop reuses the valid token")
            XCTAssertTrue(logs.contains("reconnecting in"))

            // While the server keeps failing, attempts back off (0.05, 0.1, 0.2, 0.4, 0.4 ...): no tight loop.
            server.expireTokens()
            server.failTokenRequests = 503
            let before = server.tokenRequestCount
            let planBefore = logs.lines.count
            server.dropConnections()
            // Until the plan reaches the cap twice; each failed attempt planned its wait, doubling.
            XCTAssertTrue(
                loopUntil(timeout: 30) { logs.plannedDelays(from: planBefore).filter { $0 == 0.4 }.count >= 2 },
                "\(logs.plannedDelays(from: planBefore))")
            let delays = logs.plannedDelays(from: planBefore)
            XCTAssertEqual(Array(delays.prefix(5)), [0.05, 0.1, 0.2, 0.4, 0.4], "\(delays)")
            XCTAssertEqual(
                server.tokenRequestCount - before,
                logs.lines.dropFirst(planBefore).filter { $0.1.contains("token request failed") }.count,
                "every token request after the drop failed and planned its wait: no attempt without one")
            XCTAssertEqual(events.stream.connectionState, .connecting)
            server.failTokenRequests = nil
            XCTAssertTrue(loopUntil { events.stream.connectionState == .connected })
        }
    }

    func testTokenIsRefreshedBeforeItExpires() {
        // 4 s tokens: the client refreshes half-way (the 60 s lead is capped at half the lifetime).
        withStream(.init(tokenLifetime: 4)) { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(server.tokenRequestCount, 1)
            // Each token is refreshed by itself, again and again; when is the plan's to say, not a clock's.
            XCTAssertTrue(loopUntil(timeout: 30) { server.tokenRequestCount >= 3 })
            let plan = "the token lasts 4.0 s; refreshing it 2.0 s after it was asked for"
            XCTAssertGreaterThanOrEqual(logs.count(plan), 2, "\(logs.lines.map(\.1))")
            XCTAssertEqual(logs.count("refreshing it"), logs.count(plan), "every plan is half the lifetime")
            // After the first token expired, a reconnect and a REST call still work without a refusal.
            let handshakes = server.handshakeCount
            server.dropConnections()
            XCTAssertTrue(
                loopUntil { server.handshakeCount == handshakes + 1 && events.stream.connectionState == .connected })
            let (status, _) = try awaitOnLoop {
                try await relavoi.events.stream.get(path: "sessions", query: ["state": "ACTIVE"])
            }
            XCTAssertEqual(status, 200)
        }
    }

    func testRefusedTokenCloseFetchesAFreshTokenBeforeTheNextAttempt() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(server.tokenRequestCount, 1)
            server.expireTokens()
            server.dropConnections()
            // Attempt 2 reuses the cached token and is closed with 4003; attempt 3 fetches a new one.
            XCTAssertTrue(loopUntil { server.handshakeCount == 3 && events.stream.connectionState == .connected })
            XCTAssertEqual(server.tokenRequestCount, 2)
            XCTAssertTrue(logs.contains("refused the token (close 4003)"))

            // The server closing a live stream with 4001 also forces a new token.
            server.close(code: 4001, reason: "token required")
            XCTAssertTrue(loopUntil { server.handshakeCount == 4 && events.stream.connectionState == .connected })
            XCTAssertEqual(server.tokenRequestCount, 3)
        }
    }

    func testBadCredentialsLogOnceAndRetrySlowly() {
        withStream(apiSecret: "rs_" + String(repeating: "f", count: 64)) { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(server.tokenRequestCount, 1, "connect() returns after the first failure")
            XCTAssertEqual(events.stream.connectionState, .connecting)
            // The plan, read without a clock: the next request is a minute away.
            XCTAssertTrue(logs.contains("retrying every 60 s"), "\(logs.lines.map(\.1))")
            XCTAssertEqual(logs.plannedDelays(), [], "no other wait planned")
            XCTAssertEqual(server.tokenRequestCount, 1, "retries wait unauthorizedRetryInterval (60 s)")
            XCTAssertEqual(logs.count("bad API key or secret"), 1)
            XCTAssertEqual(logs.lines.filter { $0.0 == .warning }.count, 1, "one clear line")
            // REST callers fail fast during the cool-down instead of hammering the token endpoint.
            XCTAssertThrowsError(try awaitOnLoop { try await relavoi.events.stream.get(path: "sessions") }) { error in
                XCTAssertEqual(error as? RelavoiError, .unauthorized)
                XCTAssertFalse(String(describing: error).contains("rs_fff"))
            }
            XCTAssertEqual(server.tokenRequestCount, 1)
        }
    }

    /// The agent's health notice hears each refusal; 403 (a revoked or suspended
    /// key) is a refusal as 401 is, not a transient failure retried with backoff.
    func testTokenRefusalsReachTheirListenerAnd403IsARefusal() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            var refusals = 0
            events.stream.addTokenRefusedListener("test") { refusals += 1 }
            server.failTokenRequests = 403
            try awaitOnLoop { await events.connect() }
            XCTAssertEqual(refusals, 1)
            XCTAssertTrue(logs.contains("retrying every 60 s"), "\(logs.lines.map(\.1))")
            XCTAssertEqual(logs.count("bad API key or secret (HTTP 401 or 403"), 1)
        }
    }

    func testHalfOpenConnectionIsReplaced() {
        withStream(configure: {
            $0.keepAliveInterval = 0.2
            $0.halfOpenTimeout = 0.8
        }) { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            // Six pings (1.2 s of them) are past the 0.8 s half-open deadline.
            let pings = server.pingsReceived
            XCTAssertTrue(loopUntil(timeout: 30) { server.pingsReceived >= pings + 6 })
            XCTAssertFalse(logs.contains("replacing the connection"), "pongs keep a healthy stream")
            XCTAssertEqual(server.handshakeCount, 1, "pongs keep a healthy stream")
            XCTAssertTrue(server.receivedMessages.contains("ping"))

            server.answersPings = false
            XCTAssertTrue(loopUntil(timeout: 5) { server.handshakeCount >= 2 })
            // Replaced by the half-open check (its deadline is tested with a
            // simulated clock in StreamConnectionMachineTests), not by chance.
            XCTAssertTrue(logs.contains("replacing the connection"))
            server.answersPings = true
            XCTAssertTrue(loopUntil { events.stream.connectionState == .connected })
            let handshakes = server.handshakeCount
            let replaced = logs.count("replacing the connection")
            let pingsAgain = server.pingsReceived
            XCTAssertTrue(loopUntil(timeout: 30) { server.pingsReceived >= pingsAgain + 6 })
            XCTAssertEqual(logs.count("replacing the connection"), replaced, "stable again once pongs come back")
            XCTAssertEqual(server.handshakeCount, handshakes, "stable again once pongs come back")
            XCTAssertEqual(server.liveClientCount, 1, "the replaced socket was closed")
        }
    }

    func testReconnectNowProbesAnOpenStream() {
        withStream(configure: { $0.probeTimeout = 0.3 }) { server, relavoi, logs in
            let events = relavoi.events
            try awaitOnLoop { await events.connect() }
            events.stream.reconnectNow()
            // The pong ends the probe, and the stream says so; with no probe left, the wake-up at
            // its deadline keeps the socket (StreamConnectionMachineTests: reconnectNowProbesAnOpenStream).
            XCTAssertTrue(
                loopUntil { logs.contains("the probe was answered") }, "\(logs.lines.map(\.1))")
            XCTAssertFalse(logs.contains("replacing the connection"), "a healthy stream answers the probe and stays")
            XCTAssertEqual(server.handshakeCount, 1, "a healthy stream answers the probe and stays")
            server.answersPings = false
            events.stream.reconnectNow()
            XCTAssertTrue(loopUntil(timeout: 30) { server.handshakeCount == 2 }, "\(logs.lines.map(\.1))")
            server.answersPings = true
            XCTAssertTrue(loopUntil { events.stream.connectionState == .connected })
        }
    }

    func testAHandshakeThatNeverEndsIsGivenUpAtTheConnectTimeout() throws {
        let listener = try XCTUnwrap(SilentListener())
        withStream(configure: {
            $0.webSocketURL = URL(string: "ws://127.0.0.1:\(listener.port)/v1/stream")
            $0.connectTimeout = 0.5
        }) { server, relavoi, logs in
            // connect() returns once the first attempt failed: the wake-up at the handshake deadline.
            try awaitOnLoop(timeout: 30) { await relavoi.events.connect() }
            XCTAssertTrue(logs.contains("handshake timed out after 0.5 s"), "\(logs.lines.map(\.1))")
            XCTAssertEqual(relavoi.events.stream.connectionState, .connecting, "it retries")
            XCTAssertEqual(server.handshakeCount, 0)
        }
    }

    func testFramesUpToOneMebibyteAreDeliveredLargerOnesRefused() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            let seen = EventRecorder()
            events.addListener("t") { seen.events.append($0) }
            try awaitOnLoop { await events.connect() }

            let limit = 1 << 20
            let head = #"{"type":"bulk.test","pad":""#
            let tail = #""}"#
            let exact = head + String(repeating: "x", count: limit - head.utf8.count - tail.utf8.count) + tail
            XCTAssertEqual(exact.utf8.count, limit)
            server.send(text: exact)
            XCTAssertTrue(loopUntil { seen.events.count == 1 })
            if case .unknown(let type, _)? = seen.events.first {
                XCTAssertEqual(type, "bulk.test")
            } else {
                XCTFail("not delivered: \(seen.events)")
            }
            XCTAssertEqual(server.handshakeCount, 1)

            server.send(text: head + String(repeating: "y", count: limit) + tail)
            XCTAssertTrue(loopUntil { server.handshakeCount == 2 && events.stream.connectionState == .connected })
            XCTAssertEqual(seen.events.count, 1, "the oversized frame was not delivered")
            XCTAssertTrue(logs.contains("1009"), "\(logs.lines.map(\.1))")

            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("after")])
            XCTAssertTrue(loopUntil { seen.events.count == 2 })
            XCTAssertEqual(seen.sessionIds.last, "after")
        }
    }

    func testBinaryFramesAreIgnored() {
        withStream { server, relavoi, _ in
            let events = relavoi.events
            let seen = EventRecorder()
            events.addListener("t") { seen.events.append($0) }
            try awaitOnLoop { await events.connect() }
            // A valid event, but in a binary frame: not part of the contract.
            server.send(
                binary: #"{"type":"call.answered","payload":{"sessionId":"bin","timestamp":"2026-07-15T12:14:59Z"}}"#)
            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("text")])
            XCTAssertTrue(loopUntil { seen.events.count == 1 })
            XCTAssertEqual(seen.sessionIds, ["text"])
            XCTAssertEqual(server.handshakeCount, 1, "the stream stays up")
        }
    }

    func testEventsArriveInOrderAcrossShapesWithDuplicatesDroppedAndBadFramesSkipped() {
        withStream { server, relavoi, logs in
            let events = relavoi.events
            let seen = EventRecorder()
            events.addListener("t") { event in seen.events.append(event) }
            try awaitOnLoop { await events.connect() }
            var expected: [String] = []
            for i in 0..<600 {
                let session = "s-\(i)"
                switch i % 6 {
                case 0:
                    server.sendEvent(type: "call.answered", payload: ["sessionId": .string(session)], id: "100-\(i)")
                    expected.append(session)
                case 1:
                    server.sendFlatEvent(
                        type: "call.incoming", fields: ["sessionId": .string(session), "proxyNumber": .string("+1555")])
                    expected.append(session)
                case 2:
                    server.sendEvent(type: "call.ended", payload: ["sessionId": .string(session)], id: "100-\(i)")
                    // A duplicate:
                    server.sendEvent(type: "call.ended", payload: ["sessionId": .string(session)], id: "100-\(i)")
                    expected.append(session)
                case 3:
                    // No sessionId:
                    server.send(text: #"{"type":"call.answered","payload":{"timestamp":"2026-07-15T12:14:59Z"}}"#)
                    server.send(text: "{not json")
                case 4:
                    // No id: both are delivered.
                    server.sendEvent(type: "call.missed", payload: ["sessionId": .string(session)], id: "")
                    server.sendEvent(type: "call.missed", payload: ["sessionId": .string(session)], id: "")
                    expected.append("call.missed")
                    expected.append("call.missed")
                default:
                    server.sendEvent(
                        type: "session.created",
                        payload: ["sessionId": .string(session), "proxyNumber": .string("+1555")], id: "100-\(i)")
                    expected.append(session)
                }
            }
            // A last event marks the end: frames come in order, so everything before it was handled.
            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("marker")], id: "marker")
            XCTAssertTrue(loopUntil(timeout: 30) { seen.sessionIds.last == "marker" })
            XCTAssertEqual(Array(seen.sessionIds.dropLast()), expected)
            XCTAssertEqual(events.stream.duplicatesDropped, 100)
            XCTAssertEqual(events.stream.malformedFrames, 200)
            XCTAssertLessThanOrEqual(logs.count("skipped a malformed frame"), 5, "throttled")
            XCTAssertTrue(logs.contains("\"sessionId\" missing"))
            XCTAssertEqual(server.handshakeCount, 1, "bad frames do not break the stream")
        }
    }

    func testListenerReplaceRemoveAndChangesFromInsideHandlers() {
        withStream { server, relavoi, _ in
            let events = relavoi.events
            var calls: [String] = []
            events.addListener("a") { _ in calls.append("a1") }
            events.addListener("b") { _ in calls.append("b") }
            events.addListener("a") { _ in calls.append("a2") }  // replaces a1, keeps its place
            try awaitOnLoop { await events.connect() }

            @MainActor func send(_ n: Int) {
                server.sendEvent(type: "call.answered", payload: ["sessionId": .string("s\(n)")])
            }
            send(1)
            XCTAssertTrue(loopUntil { calls.count == 2 })
            XCTAssertEqual(calls, ["a2", "b"])

            events.removeListener("a")
            events.removeListener("nope")
            calls.removeAll()
            send(2)
            XCTAssertTrue(loopUntil { calls.count == 1 })
            XCTAssertEqual(calls, ["b"])

            // Inside a handler: remove a later listener (not called for this event),
            // add one (first called for the next event), remove itself.
            calls.removeAll()
            events.addListener("first") { _ in
                calls.append("first")
                events.removeListener("b")
                events.addListener("late") { _ in calls.append("late") }
                events.removeListener("first")
            }
            events.addListener("b") { _ in calls.append("b") }  // replaces b in place (before "first")
            // Each event is over once the next one's listener ran (one at a time, in order).
            send(3)
            send(4)
            XCTAssertTrue(loopUntil(timeout: 30) { calls.contains("late") })
            XCTAssertEqual(calls, ["b", "first", "late"], "3: b and first; 4: only late")
            calls.removeAll()
            send(5)
            XCTAssertTrue(loopUntil(timeout: 30) { !calls.isEmpty })
            XCTAssertEqual(calls, ["late"])
        }
    }

    func testAuthenticatedGet() {
        withStream { server, relavoi, _ in
            let (status, body) = try awaitOnLoop {
                try await relavoi.events.stream.get(path: "sessions", query: ["state": "ACTIVE", "limit": "100"])
            }
            XCTAssertEqual(status, 200)
            XCTAssertNotNil(body["data"])
            XCTAssertNotNil(body["pagination"])
            XCTAssertEqual(server.tokenRequestCount, 1)

            let (missing, _) = try awaitOnLoop {
                try await relavoi.events.stream.get(path: "/sessions/no-such-session")
            }
            XCTAssertEqual(missing, 404)

            // A "+" in a query value travels as %2B (else the server reads a space and answers 400).
            let (verify, answer) = try awaitOnLoop {
                try await relavoi.events.stream.get(path: "sessions/verify", query: ["userPhone": "+4915100000001"])
            }
            XCTAssertEqual(verify, 200)
            XCTAssertEqual(answer["verified"], .bool(false))

            // A refused token is renewed once and the call repeated.
            server.expireTokens()
            let (again, _) = try awaitOnLoop { try await relavoi.events.stream.get(path: "sessions") }
            XCTAssertEqual(again, 200)
            XCTAssertEqual(server.tokenRequestCount, 2)
            XCTAssertFalse(try awaitOnLoop { try await relavoi.events.stream.accessToken() }.isEmpty)
            XCTAssertEqual(server.tokenRequestCount, 2, "the cached token is reused")
        }
    }

    /// The REST client reads a body a few KiB at a time: a page of sessions
    /// several reads long comes back whole and in order.
    func testAResponseBodyLongerThanOneReadArrivesWhole() {
        withStream { server, relavoi, _ in
            let label = String(repeating: "label ", count: 40)
            for index in 0..<100 {
                server.upsertSession(
                    SandboxSession(
                        id: "long_\(index)", proxyNumber: "+234800000\(1000 + index)",
                        metadata: ["label": .string(label + "\(index)")]))
            }
            let (status, body) = try awaitOnLoop {
                try await relavoi.events.stream.get(path: "sessions", query: ["limit": "100"])
            }
            XCTAssertEqual(status, 200)
            guard case .array(let sessions)? = body["data"] else { return XCTFail("no data in \(body)") }
            XCTAssertEqual(sessions.count, 100)
            let labels = sessions.compactMap { $0["metadata"]?["label"] }
            XCTAssertEqual(Set(labels), Set((0..<100).map { JSONValue.string(label + "\($0)") }))
        }
    }

    func testPlainTransportToANonLoopbackHostIsRefused() throws {
        try MainActor.assumeIsolated {
            let config = RelavoiConfig(baseURL: URL(string: "http://api.relavoi.example/v1")!)
            XCTAssertEqual(config.resolvedWebSocketURL.absoluteString, "ws://api.relavoi.example/ws")
            XCTAssertThrowsError(try config.validate()) { error in
                XCTAssertTrue(String(describing: error).contains("loopback"), "\(error)")
            }
            let logs = StreamLogRecorder()
            let relavoi = Relavoi(apiKey: "rk_x", apiSecret: "rs_x", tenantId: "t", config: config)
            XCTAssertNoThrow(try awaitOnLoop(timeout: 2) { await relavoi.events.connect() })
            XCTAssertEqual(relavoi.events.stream.connectionState, .disconnected)
            XCTAssertTrue(
                logs.lines.contains {
                    $0.1.contains("not connecting") && $0.1.contains("http://api.relavoi.example/v1")
                })
            XCTAssertThrowsError(try awaitOnLoop(timeout: 2) { try await relavoi.events.stream.get(path: "sessions") })
            { error in
                guard case .insecureURL? = error as? RelavoiError else { return XCTFail("\(error)") }
            }
            // An explicit non-loopback ws:// stream URL is refused too, even with an https base.
            let mixed = RelavoiConfig(webSocketURL: URL(string: "ws://events.relavoi.example/ws")!)
            XCTAssertThrowsError(try mixed.validate())
            XCTAssertNoThrow(try RelavoiConfig().validate())
            XCTAssertEqual(RelavoiConfig().resolvedWebSocketURL.absoluteString, "wss://api.relavoi.com/ws")
        }
    }

    func testListenersAddedAndRemovedOffTheMainThreadHoldAtOnceAndRunOnIt() {
        withStream { server, relavoi, _ in
            let events = relavoi.events
            let seen = EventRecorder()
            var onMainThread: [Bool] = []
            var probes = 0
            // Synchronously from another thread: registered before `sync` returns.
            DispatchQueue.global().sync {
                events.addListener("off-main") { event in
                    onMainThread.append(Thread.isMainThread)
                    seen.events.append(event)
                }
            }
            events.addListener("probe") { _ in probes += 1 }
            let live = try awaitOnLoop {
                await Task.detached {
                    await events.connect()
                    return await events.isConnected
                }.value
            }
            XCTAssertTrue(live, "connect and isConnected from a detached task")

            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("s1")])
            XCTAssertTrue(loopUntil { probes == 1 })
            XCTAssertEqual(seen.sessionIds, ["s1"])
            XCTAssertEqual(onMainThread, [true], "handlers run on the main loop")

            DispatchQueue.global().sync { events.removeListener("off-main") }
            server.sendEvent(type: "call.answered", payload: ["sessionId": .string("s2")])
            XCTAssertTrue(loopUntil { probes == 2 })
            XCTAssertEqual(seen.sessionIds, ["s1"], "removed from another thread: not called again")
        }
    }

    func testSharedInstance() {
        MainActor.assumeIsolated {
            Relavoi.initialize(apiKey: "rk_a", apiSecret: "rs_secret_a", tenantId: "tenant-a")
            XCTAssertTrue(Relavoi.isInitialized)
            XCTAssertEqual(Relavoi.shared.tenantId, "tenant-a")
            XCTAssertFalse(String(describing: Relavoi.shared).contains("rs_secret_a"))
            let first = Relavoi.shared
            Relavoi.initialize(apiKey: "rk_b", apiSecret: "rs_b", tenantId: "tenant-b")
            XCTAssertFalse(Relavoi.shared === first)
            XCTAssertEqual(Relavoi.shared.events.stream.connectionState, .disconnected)
            loopFor(0.05)
        }
    }
}
