import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
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
            let h = try AgentHarness(
                config: "open-url = \(Self.template)\ndismiss-policy = after:60", environment: handler.environment,
                prepareServer: { _ in }, capabilities: "body actions")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.sandbox.upsertSession(
                SandboxSession(
                    id: "ses_o", proxyNumber: "+2348000000001", state: "ACTIVE",
                    metadata: ["label": .string("Rider"), "orderId": .string("A 7/1")]))
            h.send("call.answered", "ses_o")
            let live = h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "Rider" }
            XCTAssertEqual(live?.actions, ["default", "Open"], "a live banner a click opens")
            // The D-Bus view says Open would work, once the metadata is in.
            let client = try BusTestClient(destination: AgentBus.name)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) {
                    let get = client.call(
                        "Get", Args.tuple([Args.s(AgentBus.interface), Args.s("Calls")]),
                        interface: "org.freedesktop.DBus.Properties")
                    return Args.printed(get.value).contains("'can-open': <true>")
                }, "Calls never said can-open")

            let id = live.map { $0.replacesId == 0 ? 1 : $0.replacesId } ?? 1
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
            let h = try AgentHarness(
                config: "open-url = \(Self.template)\ndismiss-policy = after:60", environment: handler.environment,
                prepareServer: { _ in }, capabilities: "body actions")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.sandbox.upsertSession(
                SandboxSession(
                    id: "ses_p", proxyNumber: "+2348000000001", state: "ACTIVE",
                    metadata: ["label": .string("Rider"), "orderId": .string("B2")]))
            h.send("call.answered", "ses_p")
            let live = h.waitForNotify { $0.hints["category"] == "call" && $0.summary == "Rider" }
            XCTAssertEqual(live?.actions, ["default", "Open"])
            let client = try BusTestClient(destination: AgentBus.name)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) {
                    let get = client.call(
                        "Get", Args.tuple([Args.s(AgentBus.interface), Args.s("Calls")]),
                        interface: "org.freedesktop.DBus.Properties")
                    return Args.printed(get.value).contains("'can-open': <true>")
                }, "Calls never said can-open")

            let id = live.map { $0.replacesId == 0 ? 1 : $0.replacesId } ?? 1
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
