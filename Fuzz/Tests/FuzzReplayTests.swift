import Foundation
import KeyFileText
import Testing

@testable import fuzz_dbus
@testable import fuzz_frames
@testable import fuzz_settings
@testable import fuzz_tray_menu

/// Every seed (Fuzz/corpus/<target>) and every fixed finding
/// (Fuzz/crashes/<target>) through the very check the fuzz target runs: no
/// crash and no broken promise, in every `make test`.
@Suite struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static func inputs(_ target: String) -> [URL] {
        ["corpus", "crashes"].flatMap { folder -> [URL] in
            let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
        }
    }

    static func replay(_ target: String, _ check: (UnsafeRawBufferPointer) -> [String]) throws {
        let files = inputs(target)
        #expect(files.count >= 30, "the seed corpus of \(target) is missing (\(files.count) files)")
        for file in files {
            let data = try Data(contentsOf: file)
            let problems = data.withUnsafeBytes { check($0) }
            #expect(problems.isEmpty, "\(target) \(file.lastPathComponent): \(problems.joined(separator: "; "))")
        }
    }

    @Test func frames() throws { try Self.replay("fuzz-frames", FrameFuzzing.problems) }

    @Test func settings() throws { try Self.replay("fuzz-settings", SettingsFuzzing.problems) }

    @Test func dbusArguments() throws { try Self.replay("fuzz-dbus", ControlArgumentsFuzzing.problems) }

    @Test func trayMenuEvents() throws { try Self.replay("fuzz-tray-menu", TrayMenuFuzzing.problems) }

    /// The tray menu's oracle reports a broken promise and reads the header as documented.
    @Test func trayMenuChecks() {
        var bytes: [UInt8] = [13, 0, 0, 0, 1, 0b11, 0, 0]
        bytes += Array("clicked\0ses_1\0Rider\0+2348000000001".utf8)
        let input = bytes.withUnsafeBytes { TrayMenuFuzzing.input($0) }
        #expect(input.itemId == 13 && input.canCopy && input.eventId == "clicked")
        #expect(input.calls.map(\.sessionId) == ["ses_1"] && input.calls[0].phase == .live)
        #expect(TrayMenuFuzzing.expectedOutcome(input) == .dismiss(sessionId: "ses_1"))
        #expect(TrayMenuFuzzing.problems(input).isEmpty)
        var copy = input
        copy.itemId = 12
        #expect(TrayMenuFuzzing.expectedOutcome(copy) == .copyNumber("+2348000000001"))
        copy.canCopy = false
        #expect(TrayMenuFuzzing.expectedOutcome(copy) == nil, "no Copy number row without a clipboard tool")
    }

    /// The checks themselves catch what they are meant to: a sanity test of the oracles.
    @Test func checksReportBrokenPromises() {
        // A refusal message with a control character is a finding.
        #expect(
            !ControlArgumentsFuzzing.messageProblems("policy", .invalidArgument("policy \"\u{1B}[31m\" is unknown"))
                .isEmpty)
        #expect(!ControlArgumentsFuzzing.messageProblems("label", .failed("x")).isEmpty)
        #expect(
            ControlArgumentsFuzzing.messageProblems("label", .invalidArgument("other_party_label is 2000 bytes long"))
                .isEmpty)
        // The header's integers are little-endian; strings follow, NUL-separated.
        var bytes: [UInt8] = [0x10, 0, 0, 0] + [0x20, 0, 0, 0, 0, 0, 0, 0] + [0x30, 0, 0, 0]
        bytes += Array("ses\0+1\0label\0after".utf8)
        let arguments = bytes.withUnsafeBytes { ControlArgumentsFuzzing.arguments($0) }
        #expect(arguments.elapsed == 16 && arguments.after == 32 && arguments.now.timeIntervalSince1970 == 48)
        #expect(
            [arguments.sessionId, arguments.proxyNumber, arguments.label, arguments.policy] == [
                "ses", "+1", "label", "after",
            ])
        // The key-file reader sees groups, escapes and refuses what GKeyFile refuses.
        #expect(KeyFileText.parse("[agent]\nk = a\\sb\n")?["agent"]?["k"] == "a b")
        #expect(KeyFileText.parse("k = v\n") == nil, "a key before any group")
        #expect(KeyFileText.parse("[agent]\nk = a\\q\n")?["agent"]?["k"] == nil, "bad escape: value left out")
        // A settings error must name a key that was given.
        #expect(SettingsFuzzing.problems(file: ["max-banners": "0"], environment: [:]).isEmpty)
    }
}
