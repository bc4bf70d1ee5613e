import XCTest

@testable import RelavoiAgentKit

/// The agent's and login's options over `CommandLineParser`: the same
/// messages and exit statuses as before it.
final class CommandLineOptionsTests: XCTestCase {
    func testAgentOptions() {
        XCTAssertEqual(
            AgentOptions.parse(["relavoi-agent", "-c", "x.conf", "--demo", "-v"]),
            .run(AgentOptions(configPath: "x.conf", demo: true, verbose: true, showVersion: false)))
        // GLib's words (in the user's language), in the agent's frame.
        for (words, option) in [(["--frobnicate"], "--frobnicate"), (["--config"], "--config")] {
            guard case .exit(2, let message) = AgentOptions.parse(["relavoi-agent"] + words) else {
                return XCTFail("\(words) is a usage error")
            }
            XCTAssertTrue(message.hasPrefix("relavoi-agent: ") && message.hasSuffix(" (try --help)"), message)
            XCTAssertTrue(message.contains(option), message)
        }
        XCTAssertEqual(
            AgentOptions.parse(["relavoi-agent", "extra"]),
            .exit(code: 2, message: "relavoi-agent: unexpected argument \"extra\" (try --help)"))
        guard case .help(let text) = AgentOptions.parse(["relavoi-agent", "--help"]) else {
            return XCTFail("--help")
        }
        XCTAssertTrue(text.contains("relavoi-agent login"), text)
        XCTAssertTrue(text.contains("-c, --config=FILE"), text)
        XCTAssertTrue(text.contains("pause-media = ringing (default), answered or off"), text)
    }

    func testLoginOptions() {
        var expected = LoginOptions()
        expected.apiKey = "rk_x"
        expected.configPath = "a.conf"
        expected.offline = true
        XCTAssertEqual(LoginOptions.parse(["--api-key=rk_x", "--config", "a.conf", "--offline"]), .run(expected))
        XCTAssertEqual(LoginOptions.parse(["-h"]), .help)
        XCTAssertEqual(LoginOptions.parse(["--api-key"]), .usageError("--api-key needs a value"))
        XCTAssertEqual(LoginOptions.parse(["--base-url="]), .usageError("--base-url needs a value"))
        XCTAssertEqual(LoginOptions.parse(["--zap=rs_pasted"]), .usageError("unknown option --zap"))
        XCTAssertEqual(
            LoginOptions.parse(["--api-secret", "rs_1"]),
            .usageError("the API secret is never taken from the command line; run login without it"))
        guard case .usageError(let message) = LoginOptions.parse(["rs_pasted"]) else { return XCTFail("operand") }
        XCTAssertFalse(message.contains("rs_pasted"), "an operand may be a pasted secret: never echoed")
    }
}
