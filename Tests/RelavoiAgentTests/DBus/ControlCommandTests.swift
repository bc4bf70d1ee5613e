import Foundation
import RelavoiAgentKit
import XCTest

/// `ctl` argv parsing: shapes only, no bus.
final class ControlCommandTests: XCTestCase {
    func testCommandsParse() {
        XCTAssertEqual(
            ControlCommand.parse(["start", "call-1", "+234 800", "Rider", "--verified"]),
            .run(.start(sessionId: "call-1", proxyNumber: "+234 800", label: "Rider", verified: true)))
        XCTAssertEqual(
            ControlCommand.parse(["start", "call-1", "0800", "Rider"]),
            .run(.start(sessionId: "call-1", proxyNumber: "0800", label: "Rider", verified: false)))
        XCTAssertEqual(
            ControlCommand.parse(["update", "--verified", "call-1", "42", "Shop"]),
            .run(.update(sessionId: "call-1", elapsedSeconds: 42, label: "Shop", verified: true)))
        XCTAssertEqual(ControlCommand.parse(["end", "call-1"]), .run(.end(sessionId: "call-1", policy: .immediate)))
        XCTAssertEqual(
            ControlCommand.parse(["end", "call-1", "default"]), .run(.end(sessionId: "call-1", policy: .default)))
        XCTAssertEqual(
            ControlCommand.parse(["end", "call-1", "after:30"]),
            .run(.end(sessionId: "call-1", policy: .afterSeconds(30))))
        XCTAssertEqual(ControlCommand.parse(["list"]), .run(.list))
        XCTAssertEqual(ControlCommand.parse(["status"]), .run(.status))
        XCTAssertEqual(
            ControlCommand.parse(["start", "call-1", "1", "--", "-dash label"]),
            .run(.start(sessionId: "call-1", proxyNumber: "1", label: "-dash label", verified: false)))
        XCTAssertEqual(
            ControlCommand.parse(["update", "call-1", "--", "-5", "x"]),
            .run(.update(sessionId: "call-1", elapsedSeconds: -5, label: "x", verified: false)))
    }

    func testHelp() {
        XCTAssertEqual(ControlCommand.parse(["--help"]), .help)
        XCTAssertEqual(ControlCommand.parse(["list", "-h"]), .help)
        XCTAssertEqual(ControlCommand.parse(["help"]), .help)
        XCTAssertTrue(ControlCommand.usage.contains("end SESSION [immediate|default|after:SECONDS]"))
    }

    func testUsageErrors() {
        let cases: [([String], String)] = [
            ([], "no command given"),
            (["launch"], "unknown command launch"),
            (["start", "a", "1"], "usage: relavoi-agent ctl start SESSION PROXY LABEL"),
            (["update", "a", "soon", "x"], "ELAPSED must be a whole number"),
            (["update", "a", "99999999999", "x"], "ELAPSED must be a whole number"),
            (["end", "a", "later"], "the policy must be"),
            (["end", "a", "after:-3"], "the policy must be"),
            (["end", "a", "after:"], "the policy must be"),
            (["end"], "usage: relavoi-agent ctl end"),
            (["list", "x"], "list takes no arguments"),
            (["status", "--verified"], "--verified goes with start and update only"),
            (["start", "--secret=x"], "unknown option --secret=x"),
            (["\u{1b}[2J"], "unknown command \u{FFFD}[2J"),
        ]
        for (args, expected) in cases {
            guard case .usageError(let message) = ControlCommand.parse(args) else {
                XCTFail("\(args) parsed")
                continue
            }
            XCTAssertTrue(message.contains(expected), "\(args): \(message)")
        }
    }
}
