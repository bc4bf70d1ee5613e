import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

final class ScenarioParsingTests: XCTestCase {
    func testEveryActionParses() throws {
        let text = """
            # a comment, then a blank line

            {"at":0,"session":{"id":"s1","proxyNumber":"+15550100","userPhones":["+14155550123"],"expiresAt":600}}
            {"at":0,"waitForClient":true}
            {"at":1,"event":"call.incoming","payload":{"sessionId":"s1"},"id":"x-1"}
            {"at":1.5,"event":"call.answered"}
            {"at":2,"flat":"call.ended","fields":{"sessionId":"s1","durationSeconds":42}}
            {"at":2,"raw":"not json"}
            {"at":3,"close":4003,"reason":"invalid token"}
            {"at":4,"drop":true}
            {"at":5,"pings":false}
            {"at":6,"expireToken":true}
            {"at":6,"failREST":503}
            {"at":6,"failREST":null}
            {"at":7,"removeSession":"s1"}
            {"at":8,"log":"done"}
            {"at":9,"quit":true}
            """
        let scenario = try Scenario.parse(text)
        XCTAssertEqual(scenario.steps.count, 15)
        XCTAssertEqual(scenario.steps[0].line, 3)
        guard case .session(let session) = scenario.steps[0].action else { return XCTFail("\(scenario.steps[0])") }
        XCTAssertEqual(session.id, "s1")
        XCTAssertEqual(session.state, "ACTIVE")
        XCTAssertEqual(session.userPhones, ["+14155550123"])
        XCTAssertEqual(session.expiresAt?.timeIntervalSinceNow ?? 0, 600, accuracy: 5)
        XCTAssertEqual(scenario.steps[1].action, .waitForClient)
        XCTAssertEqual(
            scenario.steps[2],
            .init(
                at: 1, action: .event(type: "call.incoming", payload: ["sessionId": .string("s1")], id: "x-1"), line: 5)
        )
        XCTAssertEqual(scenario.steps[3].action, .event(type: "call.answered", payload: [:], id: nil))
        XCTAssertEqual(scenario.steps[3].at, 1.5)
        XCTAssertEqual(
            scenario.steps[4].action,
            .flat(type: "call.ended", fields: ["sessionId": .string("s1"), "durationSeconds": .int(42)]))
        XCTAssertEqual(scenario.steps[5].action, .raw("not json"))
        XCTAssertEqual(scenario.steps[6].action, .close(code: 4003, reason: "invalid token"))
        XCTAssertEqual(scenario.steps[7].action, .drop)
        XCTAssertEqual(scenario.steps[8].action, .pings(false))
        XCTAssertEqual(scenario.steps[9].action, .expireTokens)
        XCTAssertEqual(scenario.steps[10].action, .failREST(503))
        XCTAssertEqual(scenario.steps[11].action, .failREST(nil))
        XCTAssertEqual(scenario.steps[12].action, .removeSession("s1"))
        XCTAssertEqual(scenario.steps[13].action, .log("done"))
        XCTAssertEqual(scenario.steps[14].action, .quit)
    }

    func testBadLinesNameTheirLineNumber() {
        let cases: [(String, String)] = [
            ("{\"at\":1,\"raw\":\"ok\"}\nnot json", "not valid JSON"),
            ("\n# c\n[1]", "not a JSON object"),
            ("{\"raw\":\"x\"}", "missing \"at\""),
            ("{\"at\":\"1\",\"raw\":\"x\"}", "must be a number"),
            ("{\"at\":-1,\"raw\":\"x\"}", "0 or more"),
            ("{\"at\":1}", "no action"),
            ("{\"at\":1,\"raw\":\"x\",\"drop\":true}", "more than one action"),
            ("{\"at\":1,\"event\":\"x\",\"payloud\":{}}", "unexpected key"),
            ("{\"at\":1,\"event\":\"\"}", "non-empty string"),
            ("{\"at\":1,\"event\":\"x\",\"payload\":[1]}", "\"payload\" must be an object"),
            ("{\"at\":1,\"close\":1005}", "close code"),
            ("{\"at\":1,\"close\":\"4003\"}", "close code"),
            ("{\"at\":1,\"drop\":false}", "must be true"),
            ("{\"at\":1,\"pings\":\"no\"}", "true or false"),
            ("{\"at\":1,\"session\":{\"id\":\"s\"}}", "missing \"proxyNumber\""),
            ("{\"at\":1,\"session\":{\"id\":\"s\",\"proxyNumber\":\"+1\",\"state\":\"LIVE\"}}", "unknown state"),
            ("{\"at\":1,\"session\":{\"id\":\"s\",\"proxyNumber\":\"+1\",\"expiresAt\":\"soon\"}}", "ISO-8601"),
            ("{\"at\":1,\"failREST\":99}", "HTTP status"),
            ("{\"at\":2,\"raw\":\"a\"}\n{\"at\":1,\"raw\":\"b\"}", "earlier than the step before"),
        ]
        let expectedLines = [2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
        for ((text, fragment), line) in zip(cases, expectedLines) {
            do {
                _ = try Scenario.parse(text)
                XCTFail("parsed: \(text)")
            } catch {
                XCTAssertEqual(error.line, line, "\(text): \(error)")
                XCTAssertTrue(error.description.contains(fragment), "\(error.description) lacks \(fragment)")
                XCTAssertTrue(error.description.hasPrefix("scenario line \(line):"), error.description)
            }
        }
    }

    func testTimesRestartAfterWaitForClient() throws {
        let scenario = try Scenario.parse(
            """
            {"at":5,"raw":"a"}
            {"at":5,"waitForClient":true}
            {"at":1,"raw":"b"}
            """)
        XCTAssertEqual(scenario.steps.map(\.at), [5, 5, 1])
    }

    func testLoadReadsAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID()).scenario")
        try "{\"at\":0,\"raw\":\"x\"}\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try Scenario.load(path: url.path).steps, [.init(at: 0, action: .raw("x"), line: 1)])
        XCTAssertThrowsError(try Scenario.load(path: url.path + ".missing"))
    }
}

final class ScenarioPlaybackTests: SandboxTestCase {
    func testStepsAreSentAtTheirTimesAfterTheFirstWelcome() throws {
        let scenario = try Scenario.parse(
            """
            {"at":0,"session":{"id":"s1","proxyNumber":"+15550100"}}
            {"at":0,"event":"lost.before.client"}
            {"at":0,"waitForClient":true}
            {"at":0.3,"event":"call.incoming","payload":{"sessionId":"s1"},"id":"e-1"}
            {"at":0.6,"flat":"call.answered","fields":{"sessionId":"s1"}}
            {"at":0.6,"raw":"third"}
            """)
        withSandbox { server, client in
            let playback = server.play(scenario)
            XCTAssertEqual(server.sessions.map(\.id), ["s1"], "at-0 steps run at once")
            let played = playback.stepsPlayed
            // A second playback's step at 0.4 s: by then the first would have sent its 0.3 s step.
            let marker = server.play(try Scenario.parse(#"{"at":0.4,"session":{"id":"marker","proxyNumber":"+1"}}"#))
            XCTAssertTrue(LoopWait.until(timeout: 30) { marker.isFinished })
            XCTAssertFalse(playback.isFinished, "waits for a client")
            XCTAssertEqual(playback.stepsPlayed, played, "waits for a client")
            // Lower bounds only (a loaded machine makes steps late, never early):
            // the welcome comes after this, each step at its time after the welcome.
            let beforeConnect = Date()
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            XCTAssertTrue(socket.waitForMessages(2))
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(beforeConnect), 0.3, "the 0.3 s step came early")
            XCTAssertTrue(socket.waitForMessages(4))
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(beforeConnect), 0.6, "the 0.6 s steps came early")
            let frames = socket.json
            XCTAssertEqual(frames[1]["id"], .string("e-1"))
            XCTAssertEqual(frames[1]["payload"]?["sessionId"], .string("s1"))
            XCTAssertEqual(frames[2]["type"], .string("call.answered"))
            XCTAssertEqual(socket.messages[3], "third")
            XCTAssertTrue(playback.isFinished)
            XCTAssertEqual(playback.stepsPlayed, 6)
            XCTAssertEqual(server.session(id: "s1")?.callCount, 1)
        }
    }

    func testCloseStepAndQuitHook() throws {
        let scenario = try Scenario.parse(
            """
            {"at":0,"waitForClient":true}
            {"at":0.1,"close":4003,"reason":"invalid token"}
            {"at":0.2,"quit":true}
            """)
        withSandbox { server, client in
            var quits = 0
            server.onQuit = { quits += 1 }
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            let playback = server.play(scenario)
            XCTAssertTrue(socket.waitForClose())
            XCTAssertEqual(socket.closeCode, 4003)
            XCTAssertTrue(LoopWait.until(timeout: 2) { playback.isFinished })
            XCTAssertEqual(quits, 1)
        }
    }

    func testCancelStopsPlayback() throws {
        let scenario = try Scenario.parse("{\"at\":0.2,\"raw\":\"never\"}")
        withSandbox { server, client in
            guard let socket = connectedSocket(server, client) else { return }
            defer { socket.dispose() }
            let playback = server.play(scenario)
            playback.cancel()
            // A second playback's frame at 0.3 s comes after the cancelled one's at 0.2 s would have.
            _ = server.play(try Scenario.parse(#"{"at":0.3,"raw":"marker"}"#))
            XCTAssertTrue(socket.waitForMessages(2, timeout: 30))
            XCTAssertEqual(socket.messages.count, 2)
            XCTAssertEqual(socket.messages.last, "marker", "the cancelled step never came")
            XCTAssertTrue(playback.isFinished)
            XCTAssertEqual(playback.stepsPlayed, 0)
        }
    }
}
