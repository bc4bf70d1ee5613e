import Foundation
import RelavoiClient
import XCTest

/// docs/dbus.md is the agent's D-Bus contract, written once: its interface block names the
/// same bus name, object, interface, methods, properties and signals as `AgentBus`.
final class AgentBusDocsTests: XCTestCase {
    func testTheDocumentedInterfaceIsTheServedOne() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/dbus.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "## The interface\n").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first)
        let lines = block.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(" ") }

        XCTAssertTrue(lines.contains { $0.hasPrefix("bus name") && $0.contains(" \(AgentBus.name) ") }, block)
        XCTAssertTrue(lines.contains { $0.hasPrefix("object") && $0.hasSuffix(" \(AgentBus.objectPath)") }, block)
        XCTAssertTrue(lines.contains { $0.hasPrefix("interface") && $0.hasSuffix(" \(AgentBus.interface)") }, block)

        func names(_ lines: [String], prefix: String) -> Set<String> {
            Set(
                lines.filter { $0.hasPrefix(prefix) }.map {
                    String($0.dropFirst(prefix.count).prefix { $0.isLetter || $0.isNumber })
                })
        }
        let documentedMethods = Set(
            lines.filter { $0.first?.isUppercase == true && $0.contains("(") }
                .map { String($0.prefix { $0.isLetter || $0.isNumber }) })
        XCTAssertEqual(documentedMethods, Self.served("method"))
        XCTAssertEqual(names(lines, prefix: "property "), Self.served("property"))
        XCTAssertEqual(names(lines, prefix: "signal "), Self.served("signal"))
    }

    /// The keys of a `Calls` entry the document lists ("session-id s, label s, …") are
    /// the ones the agent writes and the window reads (`CallsKey`).
    func testTheDocumentedCallsKeysAreTheWrittenOnes() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/dbus.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "\nproperty Calls ").dropFirst().first)
        let entry = section.split(separator: "\n").dropFirst().prefix { $0.hasPrefix(" ") }.joined(separator: " ")
        let keys = try NSRegularExpression(pattern: "([a-z][a-z-]*) [sxb]\\b")
        let documented = Set(
            keys.matches(in: entry, range: NSRange(entry.startIndex..., in: entry)).compactMap {
                Range($0.range(at: 1), in: entry).map { String(entry[$0]) }
            })
        XCTAssertEqual(documented, Set(CallsKey.allCases.map(\.rawValue)), entry)
    }

    /// The names of one kind of member in `AgentBus.introspectionXML`.
    private static func served(_ kind: String) -> Set<String> {
        Set(
            AgentBus.introspectionXML.components(separatedBy: "<\(kind) name=\"").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            })
    }
}
