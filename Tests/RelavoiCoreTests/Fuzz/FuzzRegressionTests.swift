import Foundation
import KeyFileText
import RelavoiSettings
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// The fuzzers' seed corpora (Fuzz/corpus) and fixed findings (Fuzz/crashes)
/// replayed through the frame decoder and the settings parser: `ok-*` inputs
/// are accepted, `bad-*` ones refused with a clean error, nothing crashes.
/// Seeds are written by Fuzz/make-seeds.py; docs/hardening.md has the rest.
@Suite struct FuzzRegressionTests {
    enum Corpus {
        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")

        /// Every input of a target, as (name, bytes); findings are named `crashes/…`.
        static func inputs(_ target: String) -> [(name: String, bytes: [UInt8])] {
            ["corpus", "crashes"].flatMap { folder -> [(name: String, bytes: [UInt8])] in
                let directory = root.appendingPathComponent(folder).appendingPathComponent(target)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
                    guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                    else { return nil }
                    return (folder == "corpus" ? name : "\(folder)/\(name)", [UInt8](data))
                }
            }
        }

        static func input(_ target: String, _ name: String) throws -> [UInt8] {
            try #require(inputs(target).first { $0.name == name }?.bytes, "missing seed \(target)/\(name)")
        }
    }

    // MARK: - Frames

    @Test func everyFrameSeedDecodesOrFailsAsNamed() {
        let inputs = Corpus.inputs("fuzz-frames")
        #expect(inputs.count >= 60, "Fuzz/corpus/fuzz-frames is missing")
        let decoder = FrameDecoder()
        for (name, bytes) in inputs {
            let result = Result { () throws(FrameDecodeError) in try decoder.decode(utf8: bytes) }
            let base = name.split(separator: "/").last.map(String.init) ?? name
            if base.hasPrefix("ok-") {
                #expect(throws: Never.self, "\(name)") { try result.get() }
            } else if base.hasPrefix("bad-") {
                #expect(throws: FrameDecodeError.self, "\(name)") { try result.get() }
            }
            if case .failure(let error) = result {
                #expect(
                    error.reason.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, "\(name): \(error)")
            }
        }
    }

    /// The seeds of every event type, in both shapes, decode to that type.
    @Test(arguments: FrameDecoder.knownTypes.sorted())
    func bothShapesOfEveryTypeDecode(_ type: String) throws {
        let decoder = FrameDecoder()
        let envelope = try decoder.decode(utf8: Corpus.input("fuzz-frames", "ok-envelope-\(type).json"))
        let flat = try decoder.decode(utf8: Corpus.input("fuzz-frames", "ok-flat-\(type).json"))
        guard case .event(let event, let id) = envelope, case .event(let flatEvent, nil) = flat else {
            Issue.record("\(type): \(envelope), \(flat)")
            return
        }
        #expect(id == "1718000000000-0")
        #expect(event == flatEvent, "both shapes carry the same event")
        #expect(Self.type(of: event) == type)
    }

    @Test func edgeSeedsDecodeToWhatTheWireMeans() throws {
        let decoder = FrameDecoder()
        func event(_ name: String) throws -> RelavoiEvent? {
            guard case .event(let event, _) = try decoder.decode(utf8: Corpus.input("fuzz-frames", name)) else {
                return nil
            }
            return event
        }
        let time = try #require(ISO8601Timestamp.parse("2026-07-15T12:14:59.758Z"))
        #expect(try event("ok-time-offset-colon.json") == .callAnswered(sessionId: "s", ts: time))
        #expect(try event("ok-ended-duration-double.json") == .callEnded(sessionId: "s", durationSeconds: 74, ts: time))
        #expect(try event("ok-lone-surrogate.json") == .callAnswered(sessionId: "\u{FFFD}x", ts: time))
        #expect(try event("ok-unicode-escapes.json") == .callAnswered(sessionId: "s😀é", ts: time))
        #expect(try event("ok-duplicate-keys.json") == .callEnded(sessionId: "s", durationSeconds: 0, ts: time))
        #expect(try decoder.decode(utf8: Corpus.input("fuzz-frames", "ok-pong.txt")) == .pong)
        #expect(
            try decoder.decode(utf8: Corpus.input("fuzz-frames", "ok-envelope-empty-id.json"))
                == .event(.callAnswered(sessionId: "s", ts: time), id: nil))
    }

    static func type(of event: RelavoiEvent) -> String {
        switch event {
        case .sessionCreated: return "session.created"
        case .sessionActivated: return "session.activated"
        case .sessionExpired: return "session.expired"
        case .callIncoming: return "call.incoming"
        case .callAnswered: return "call.answered"
        case .callEnded: return "call.ended"
        case .smsReceived: return "sms.received"
        case .unknown(let type, _): return type
        }
    }

    // MARK: - Settings

    @Test func everySettingsSeedParsesOrFailsAsNamed() {
        let inputs = Corpus.inputs("fuzz-settings")
        #expect(inputs.count >= 30, "Fuzz/corpus/fuzz-settings is missing")
        for (name, bytes) in inputs {
            guard let text = String(validating: bytes, as: UTF8.self), let groups = KeyFileText.parse(text) else {
                #expect(!name.hasPrefix("ok-"), "\(name) is not a readable key file")
                continue
            }
            let file = groups[AgentSettings.group] ?? [:]
            let environment = groups["environment"] ?? [:]
            let result = Result { () throws(SettingsError) in try AgentSettings(file: file, environment: environment) }
            let base = name.split(separator: "/").last.map(String.init) ?? name
            if base.hasPrefix("ok-") {
                #expect(throws: Never.self, "\(name)") { try result.get() }
            } else if base.hasPrefix("bad-") {
                #expect(throws: SettingsError.self, "\(name)") { try result.get() }
            }
            if case .failure(let error) = result {
                let overridden = Self.overrides.compactMap { environment[$0.key]?.isEmpty == false ? $0.value : nil }
                #expect(Set(file.keys).union(overridden).contains(error.key), "\(name): the error names \(error.key)")
            }
        }
    }

    /// The environment variables that override agent.conf keys (docs/settings.md).
    static let overrides = [
        "RELAVOI_BASE_URL": "base-url", "RELAVOI_WS_URL": "ws-url", "RELAVOI_API_KEY": "api-key",
        "RELAVOI_TENANT_ID": "tenant-id", "RELAVOI_USER_PHONE": "user-phone",
        "RELAVOI_API_SECRET_FILE": "api-secret-file",
    ]

    @Test func fullSettingsSeedMeansWhatItSays() throws {
        let text = try #require(String(validating: Corpus.input("fuzz-settings", "ok-full.conf"), as: UTF8.self))
        let file = try #require(KeyFileText.parse(text)?[AgentSettings.group])
        let settings = try AgentSettings(file: file, environment: [:])
        #expect(settings.tenantId == "5a4d0000-0000-4000-8000-00000000c0de")
        #expect(settings.maxBanners == 20)
        #expect(settings.proxyNumbers == ["+15550001", "+15550002", "+15550003"])
        #expect(settings.dismissPolicy == .after(seconds: 600))
        #expect(settings.smsNotifications == false && settings.banners.ringThroughDoNotDisturb)
        #expect(settings.labelKey == "rider_label")
    }

    @Test func environmentSeedOverridesTheFile() throws {
        let text = try #require(String(validating: Corpus.input("fuzz-settings", "ok-environment.conf"), as: UTF8.self))
        let groups = try #require(KeyFileText.parse(text))
        let settings = try AgentSettings(file: groups["agent"] ?? [:], environment: groups["environment"] ?? [:])
        #expect(settings.apiKey == "from-env")
        #expect(settings.baseURL == "http://127.0.0.1:8080/v1")
        #expect(settings.userPhone == "+15550100123")
    }
}
