import Foundation
import RelavoiAgentKit
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
                MainLoop.iterate(timeout: 15) {
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

/// A stand-in browser: the default handler of `x-scheme-handler/https` in a
/// private `XDG_DATA_HOME`; it writes its argument and `XDG_ACTIVATION_TOKEN`
/// to a file.
final class FakeURLHandler {
    let root: URL
    var opened: URL { root.appendingPathComponent("opened") }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-url-\(UUID().uuidString)")
        let applications = root.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        let script = root.appendingPathComponent("open.sh")
        try """
        #!/bin/sh
        printf '%s\\n%s\\n' "$1" "$XDG_ACTIVATION_TOKEN" > '\(root.path)/opening' && mv '\(root.path)/opening' '\(opened.path)'

        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        try """
        [Desktop Entry]
        Type=Application
        Name=Relavoi test browser
        Exec=\(script.path) %u
        MimeType=x-scheme-handler/https;x-scheme-handler/http;
        NoDisplay=true

        """.write(
            to: applications.appendingPathComponent("relavoi-test-browser.desktop"), atomically: true, encoding: .utf8)
        try """
        [Default Applications]
        x-scheme-handler/https=relavoi-test-browser.desktop
        x-scheme-handler/http=relavoi-test-browser.desktop

        """.write(to: applications.appendingPathComponent("mimeapps.list"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var environment: [String: String] { ["XDG_DATA_HOME": root.appendingPathComponent("data").path] }

    func reset() { try? FileManager.default.removeItem(at: opened) }

    /// The URL and token the handler was given, once it ran.
    @MainActor func waitForOpened(timeout: Double = 30) -> [String]? {
        var lines: [String]?
        _ = MainLoop.iterate(timeout: timeout) {
            lines = (try? String(contentsOf: self.opened, encoding: .utf8)).map {
                $0.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
            return lines != nil
        }
        return lines
    }
}
