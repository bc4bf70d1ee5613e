import CGLib
import Foundation
import RelavoiGLib
import XCTest

@testable import RelavoiAgentKit

/// `relavoi-agent login` with a scripted terminal and keyring.
final class LoginCommandTests: XCTestCase {
    func testStoresSecretAndWritesKeyKeepingOtherSettings() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/relavoi/agent.conf"
        try FileManager.default.createDirectory(atPath: directory.path + "/relavoi", withIntermediateDirectories: true)
        try directory.file(
            "relavoi/agent.conf",
            "# my settings\n[agent]\nbase-url = https://api.example.test\napi-key = rk_old\n\n[banners]\nsound = false\n",
            mode: 0o644)
        let recorder = LoginRecorder(lines: ["  \(TestCredentials.apiKey)  ", TestCredentials.secret])
        XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), 0, "\(recorder.err)")

        XCTAssertEqual(recorder.prompts.map(\.0), ["Relavoi API key: ", "Relavoi API secret (not shown): "])
        XCTAssertEqual(recorder.prompts.map(\.1), [false, true], "only the secret is hidden")
        XCTAssertEqual(recorder.stored.count, 1)
        XCTAssertEqual(recorder.stored.first?.0, APISecret(TestCredentials.secret))
        XCTAssertEqual(recorder.stored.first?.1, TestCredentials.apiKey)
        XCTAssertEqual(recorder.stored.first?.2, "Relavoi API secret (rk_test_0123…)")

        let settings = try KeyFileText.load(config)
        XCTAssertEqual(settings["agent"]?["api-key"], TestCredentials.apiKey)
        XCTAssertEqual(settings["agent"]?["base-url"], "https://api.example.test")
        XCTAssertEqual(settings["banners"]?["sound"], "false")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(text.contains("# my settings"), text)
        XCTAssertFalse(text.contains(TestCredentials.secret))
        XCTAssertEqual(try mode(of: config), 0o600, "rewritten private")
        XCTAssertEqual(recorder.err, [])
    }

    func testCreatesThePrivateDirectoryAndFile() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/new/relavoi/agent.conf"
        let recorder = LoginRecorder(lines: [TestCredentials.secret])
        XCTAssertEqual(
            LoginCommand.run(
                ["--api-key", TestCredentials.apiKey, "--config", config], io: recorder.io(configPath: "/unused")), 0)
        XCTAssertEqual(recorder.prompts.map(\.0), ["Relavoi API secret (not shown): "])
        XCTAssertEqual(try mode(of: directory.path + "/new/relavoi"), 0o700)
        XCTAssertEqual(try mode(of: config), 0o600)
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["api-key"], TestCredentials.apiKey)
    }

    func testShapesAreCheckedAndForceWarns() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let swapped = LoginRecorder(lines: [TestCredentials.secret, TestCredentials.apiKey])
        XCTAssertEqual(LoginCommand.run([], io: swapped.io(configPath: config)), 2)
        XCTAssertEqual(
            swapped.err, ["relavoi-agent login: that looks like the API secret (rs_…), not the API key (rk_…)"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: config))

        let oddSecret = LoginRecorder(lines: [TestCredentials.apiKey, "rs_short"])
        XCTAssertEqual(LoginCommand.run([], io: oddSecret.io(configPath: config)), 2)
        XCTAssertEqual(
            oddSecret.err,
            [
                "relavoi-agent login: the API secret should be rs_ followed by 64 hex digits; use --force to store it anyway"
            ])
        XCTAssertTrue(oddSecret.stored.isEmpty)

        let forced = LoginRecorder(lines: ["tenant-key-v2", "rs_short"])
        XCTAssertEqual(LoginCommand.run(["--force"], io: forced.io(configPath: config)), 0)
        XCTAssertEqual(forced.err.count, 2)
        XCTAssertTrue(forced.err.allSatisfy { $0.contains("warning:") && $0.contains("storing it anyway (--force)") })
        XCTAssertEqual(forced.stored.first?.0, APISecret("rs_short"))

        let spaced = LoginRecorder(lines: [TestCredentials.apiKey, "rs_ two words"])
        XCTAssertEqual(LoginCommand.run(["--force"], io: spaced.io(configPath: config)), 2)
        XCTAssertEqual(spaced.err, ["relavoi-agent login: the API secret holds spaces or control characters"])
    }

    func testMissingInputAndUsage() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let noSecret = LoginRecorder(lines: [TestCredentials.apiKey])
        XCTAssertEqual(LoginCommand.run([], io: noSecret.io(configPath: config)), 2)
        XCTAssertEqual(noSecret.err, ["relavoi-agent login: no API secret given"])

        let help = LoginRecorder(lines: [])
        XCTAssertEqual(LoginCommand.run(["--help"], io: help.io(configPath: config)), 0)
        XCTAssertTrue(help.out.first?.hasPrefix("Usage: relavoi-agent login") == true)

        for args in [
            ["--api-secret", "x"], ["--secret=rs_abc"], [TestCredentials.secret], ["--bogus=\(TestCredentials.secret)"],
        ] {
            let recorder = LoginRecorder(lines: [])
            XCTAssertEqual(LoginCommand.run(args, io: recorder.io(configPath: config)), 2, "\(args)")
            XCTAssertFalse(recorder.err.joined().contains("rs_"), "\(recorder.err)")
            XCTAssertTrue(recorder.prompts.isEmpty)
        }
    }

    func testKeyringFailureStillSavesTheKeyAndExplains() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        var io = recorder.io(configPath: config)
        io.storeSecret = { (_, _, _) throws(Keyring.StoreError) in
            throw Keyring.StoreError(
                description: "The name org.freedesktop.secrets was not provided by any .service files")
        }
        XCTAssertEqual(LoginCommand.run([], io: io), 1)
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["api-key"], TestCredentials.apiKey)
        let err = recorder.err.joined(separator: "\n")
        XCTAssertTrue(err.contains("NOT stored: no usable keyring (The name org.freedesktop.secrets"), err)
        XCTAssertTrue(err.contains("RELAVOI_API_SECRET_FILE") && err.contains("chmod 600"), err)
        XCTAssertFalse(err.contains(TestCredentials.secret))
    }

    func testUnreadableConfigIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let config = try directory.file("agent.conf", "this is [not a key file\n", mode: 0o600)
        let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), 1)
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), "this is [not a key file\n")
        XCTAssertTrue(recorder.err.last?.contains("left unchanged") == true, "\(recorder.err)")
    }

    func testCredentialShapes() {
        XCTAssertEqual(CredentialShape.checkKey(TestCredentials.apiKey), .ok)
        XCTAssertEqual(CredentialShape.checkKey(TestCredentials.otherKey), .ok)
        XCTAssertEqual(CredentialShape.checkKey("rk_live_" + String(repeating: "AB", count: 24)), .ok)
        XCTAssertEqual(
            CredentialShape.checkKey("rk_live_123"),
            .unusual("the API key should be rk_live_ or rk_test_ followed by 48 hex digits (it has 11 characters)"))
        XCTAssertEqual(CredentialShape.checkKey("rk_prod_" + String(repeating: "a", count: 48)).isOK, false)
        XCTAssertEqual(CredentialShape.checkKey(""), .invalid("the API key is empty"))
        XCTAssertEqual(CredentialShape.checkSecret(TestCredentials.secret), .ok)
        XCTAssertEqual(CredentialShape.checkSecret("rs_" + String(repeating: "g", count: 64)).isOK, false)
        XCTAssertEqual(CredentialShape.checkSecret(TestCredentials.apiKey).isOK, false)
        XCTAssertEqual(
            CredentialShape.checkSecret("rs_\u{1b}x"), .invalid("the API secret holds spaces or control characters"))
    }

    private func mode(of path: String) throws -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return info.st_mode & 0o777
    }
}

extension CredentialShape.Verdict {
    var isOK: Bool { self == .ok }
}

/// Reads a key file back through GLib (as the agent's settings loader does).
enum KeyFileText {
    static func load(_ path: String) throws -> [String: [String: String]] {
        try KeyFile.load(path: path)
    }
}
