import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// `open-url`: a click on a call's banner (the server's `ActivationToken` then
/// `ActionInvoked "default"`) or D-Bus `Open` opens the session's page with
/// the desktop's default https handler: here a fake one, a `.desktop` file in
/// a private `XDG_DATA_HOME` whose program writes down what it was given.
final class AgentOpenURLTests: XCTestCase {
    static let template = "https://ops.example.com/calls/{sessionId}?order={metadata.orderId}"

    func testClickOpensTheSessionPageWithTheActivationToken() throws {
        try MainActor.assumeIsolated {
            let handler = try FakeURLHandler()
            let (h, client, id) = try Self.answeredCall("ses_o", orderId: "A 7/1", handler: handler)
            defer { h.stop() }
            h.mock.emitActionInvoked(id: id, token: "token-42")
            let opened = handler.waitForOpened()
            XCTAssertEqual(
                opened, ["https://ops.example.com/calls/ses_o?order=A%207%2F1", "token-42"],
                h.agent.log.suffix(2000)
                    .description)

            // A panel's "Open": the same page, from the agent.
            handler.reset()
            XCTAssertFalse(client.call("Open", Args.tuple([Args.s("ses_o")])).isError)
            XCTAssertEqual(handler.waitForOpened()?.first, "https://ops.example.com/calls/ses_o?order=A%207%2F1")
            XCTAssertTrue(client.call("Open", Args.tuple([Args.s("ses_none")])).isError, "no banner, no page")

            h.send("call.ended", "ses_o", ["durationSeconds": .int(5)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertEqual(ended?.actions, ["default", "Open"], "an ended banner still opens the call")
        }
    }

    /// With a desktop portal on the bus the click goes to its `OpenURI` (the portal
    /// starts the browser, outside the agent's unit), token and all; the agent starts
    /// no handler of its own.
    func testClickGoesToTheDesktopPortalWhenThereIsOne() throws {
        try MainActor.assumeIsolated {
            let handler = try FakeURLHandler()
            let portal = try StandInPortal()
            defer { portal.stop() }
            let (h, _, id) = try Self.answeredCall("ses_p", orderId: "B2", handler: handler)
            defer { h.stop() }
            h.mock.emitActionInvoked(id: id, token: "token-7")
            let opened = portal.waitForOpened()
            XCTAssertEqual(
                opened?.uri, "https://ops.example.com/calls/ses_p?order=B2", h.agent.log.suffix(2000).description)
            XCTAssertEqual(opened?.options["activation_token"], "token-7")
            XCTAssertEqual(portal.opened().count, 1, "one click, one request")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: handler.opened.path), "the agent started no handler itself")
        }
    }

    /// An agent with `open-url` and the stand-in browser, and session `session`'s call
    /// answered: its live banner offers a click, and `Calls` says it can open. Returns the
    /// agent (the caller stops it), a client of its bus and the banner's notification id.
    @MainActor
    private static func answeredCall(
        _ session: String, orderId: String, handler: FakeURLHandler, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> (AgentHarness, BusTestClient, notification: UInt32) {
        let client = try BusTestClient(destination: AgentBus.name)
        let h = try AgentHarness(
            config: "open-url = \(template)\ndismiss-policy = after:60", environment: handler.environment,
            capabilities: "body actions")
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)", file: file, line: line)
        h.session(session, proxy: "+2348000000001", metadata: ["orderId": .string(orderId)])
        h.send("call.answered", session)
        let live = h.waitForNotify(file: file, line: line) { $0.hints["category"] == "call" && $0.summary == "Rider" }
        XCTAssertEqual(live?.actions, ["default", "Open"], "a live banner a click opens", file: file, line: line)
        // The D-Bus view says Open would work, once the metadata is in.
        XCTAssertTrue(
            LoopWait.until(timeout: 15) { client.agentCalls().contains("'can-open': <true>") },
            "Calls never said can-open", file: file, line: line)
        return (h, client, live.map { $0.replacesId == 0 ? 1 : $0.replacesId } ?? 1)
    }

    func testWithoutOpenURLOrActionsThereIsNoAction() throws {
        try MainActor.assumeIsolated {
            // The server has actions, the setting is unset.
            let h = try AgentHarness(config: "", prepareServer: { _ in }, capabilities: "body actions")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.session("ses_q")
            h.send("call.answered", "ses_q")
            let live = h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "Rider" }
            XCTAssertEqual(live?.actions, [])
            let client = try BusTestClient(destination: AgentBus.name)
            XCTAssertTrue(client.call("Open", Args.tuple([Args.s("ses_q")])).isError, "open-url unset")
        }
        try MainActor.assumeIsolated {
            // The setting is set, the server has no actions (dbusmock's default capabilities).
            let h = try AgentHarness(config: "open-url = \(Self.template)")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.session("ses_r")
            h.send("call.answered", "ses_r")
            let live = h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "Rider" }
            XCTAssertEqual(live?.actions, [])
        }
    }
}
