import Foundation
import RelavoiSettings
import Testing

/// The table of settings (`Setting.all`) against what the docs say: docs/settings.md's
/// table and the man page's CONFIGURATION and ENVIRONMENT sections. Each fails when a key,
/// its environment variable, its choices or its default drift from the table.
@Suite struct SettingsDocsTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs").standardized

    static func read(_ name: String) throws -> String {
        try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
    }

    /// docs/settings.md: one row per key, in the table's order, with its variable and default.
    @Test func settingsPageListsTheTable() throws {
        let rows = try Self.read("settings.md").split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
            .map {
                $0.split(separator: "|", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            }
        #expect(rows.map { $0[1] } == Setting.all.map { "`\($0.key)`" })
        for (row, setting) in zip(rows, Setting.all) {
            #expect(row[2] == (setting.environmentVariable.map { "`\($0)`" } ?? ""), "\(setting.key)")
            let defaultValue = setting.defaultValue
            #expect(row[3] == (defaultValue.isEmpty ? setting.unsetDefault : "`\(defaultValue)`"), "\(setting.key)")
        }
    }

    /// The man page: each key is an entry of CONFIGURATION (with its choices and default)
    /// or, when a variable overrides it, an entry of ENVIRONMENT; nothing else is there.
    @Test func manPageDescribesTheTable() throws {
        let lines = try Self.read("relavoi-agent.1").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        func section(_ name: String) -> ArraySlice<String> {
            let start = lines.firstIndex(of: ".SH \(name)")! + 1
            let end = lines[start...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.endIndex
            return lines[start..<end]
        }
        // `.TP` then the entry's head: `.BR key " = " a | b` or `.BI "key = " VALUE`.
        func entries(_ section: ArraySlice<String>) -> [(head: String, body: [String])] {
            var found: [(String, [String])] = []
            for index in section.indices where section[index] == ".TP" && index + 1 < section.endIndex {
                let body = section[(index + 2)...].prefix { $0 != ".TP" }
                found.append((section[index + 1], Array(body)))
            }
            return found
        }
        var described: [String: (head: String, body: [String])] = [:]
        for entry in entries(section("CONFIGURATION")) {
            let words = entry.head.split(separator: " ").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            guard words.count > 1 else { continue }
            described[words[1]] = entry
        }
        let variables = Set(
            entries(section("ENVIRONMENT")).compactMap { entry in
                entry.head.hasPrefix(".B ") ? String(entry.head.dropFirst(3)) : nil
            })
        #expect(Set(described.keys).subtracting(Setting.all.map(\.key)).isEmpty, "unknown keys in the man page")
        for setting in Setting.all {
            guard let entry = described[setting.key] else {
                let variable = try #require(setting.environmentVariable, "\(setting.key) is not in the man page")
                #expect(variables.contains(variable), "\(variable) is not in ENVIRONMENT")
                continue
            }
            if case .choice(let words) = setting.type {
                #expect(entry.head == ".BR \(setting.key) \" = \" " + words.joined(separator: " | "))
            }
            let defaultValue = setting.defaultValue
            guard !defaultValue.isEmpty else { continue }
            let at = try #require(entry.body.firstIndex { $0.hasPrefix("Default:") }, "\(setting.key): no default")
            var said = entry.body[at].dropFirst("Default:".count).trimmingCharacters(in: .whitespaces)
            if said.isEmpty, at + 1 < entry.body.count {
                said = entry.body[at + 1].split(separator: " ").dropFirst().first.map(String.init) ?? ""
            }
            #expect(said.trimmingCharacters(in: CharacterSet(charactersIn: ".,")) == defaultValue, "\(setting.key)")
        }
    }

    /// `--help` lists every key (it is made from the table).
    @Test func helpListsEveryKey() {
        for setting in Setting.all { #expect(Setting.helpText.contains("\n  \(setting.key) = ")) }
    }
}
