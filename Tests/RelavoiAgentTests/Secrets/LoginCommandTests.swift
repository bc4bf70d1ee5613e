import CGLib
import Foundation
import RelavoiClient
import RelavoiGLib
import RelavoiStream
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

        XCTAssertEqual(
            recorder.prompts.map(\.0),
            [
                "Relavoi API key: ", "Relavoi API secret (not shown): ",
                "Your phone number for call verification, E.164 such as +2348000000001 (optional; Enter skips): ",
            ])
        XCTAssertEqual(recorder.prompts.map(\.1), [false, true, false], "only the secret is hidden")
        XCTAssertEqual(recorder.checks.map(\.0), [TestCredentials.apiKey], "checked before saving")
        XCTAssertEqual(recorder.checks.map(\.1), ["https://api.example.test"], "against the configured base-url")
        XCTAssertEqual(recorder.stored.count, 1)
        XCTAssertEqual(recorder.stored.first?.0, APISecret(TestCredentials.secret))
        XCTAssertEqual(recorder.stored.first?.1, TestCredentials.apiKey)
        XCTAssertEqual(recorder.stored.first?.2, "Relavoi API secret (rk_test_0123…)")

        let settings = try KeyFileText.load(config)
        XCTAssertEqual(settings["agent"]?["api-key"], TestCredentials.apiKey)
        XCTAssertEqual(settings["agent"]?["tenant-id"], TestJWT.tenant, "from the token's tenantId claim")
        XCTAssertNil(settings["agent"]?["user-phone"], "skipped")
        XCTAssertEqual(settings["agent"]?["base-url"], "https://api.example.test")
        XCTAssertEqual(settings["banners"]?["sound"], "false")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(text.contains("# my settings"), text)
        XCTAssertFalse(text.contains(TestCredentials.secret))
        XCTAssertEqual(try mode(of: config), 0o600, "rewritten private")
        XCTAssertEqual(recorder.err, [])
        XCTAssertEqual(
            recorder.out,
            [
                "Checking the API key and secret with https://api.example.test …",
                "The key and secret work: tenant \(TestJWT.tenant).",
                "Saved api-key, tenant-id in \(config).",
                "No phone number: banners show Verified only through a session's own data (add user-phone later).",
                "Stored the API secret in the keyring as \"Relavoi API secret (rk_test_0123…)\".",
                "Start the agent: systemctl --user start relavoi-agent (or log out and in again); an agent already running takes these at once.",
            ])
    }

    func testCreatesThePrivateDirectoryAndFile() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/new/relavoi/agent.conf"
        let recorder = LoginRecorder(lines: [TestCredentials.secret])
        XCTAssertEqual(
            LoginCommand.run(
                ["--api-key", TestCredentials.apiKey, "--config", config], io: recorder.io(configPath: "/unused")), 0)
        XCTAssertEqual(recorder.prompts.map(\.0).first, "Relavoi API secret (not shown): ", "the key was given")
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
        XCTAssertTrue(recorder.prompts.isEmpty, "said before asking anything")
    }

    func testRefusedPairSavesNothing() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/relavoi/agent.conf"
        let recorder = LoginRecorder(
            lines: [TestCredentials.apiKey, TestCredentials.secret, "+2348000000001"],
            checkResult: .refused(status: 401))
        XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), LoginCommand.exitRefused)
        XCTAssertEqual(recorder.prompts.count, 2, "no question after the refusal")
        XCTAssertTrue(recorder.stored.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: config))
        XCTAssertEqual(
            recorder.err,
            [
                "relavoi-agent login: https://api.relavoi.com/v1 refused this API key and secret (HTTP 401); nothing was saved. Copy both again from the Relavoi dashboard and run login again."
            ])
    }

    func testServerTroubleSavesNothingUnlessOffline() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let cases: [(CredentialCheckResult, Int32, String)] = [
            (
                .unreachable("Could not connect: Connection refused"), 4,
                "cannot reach https://api.relavoi.com/v1 (Could not connect: Connection refused); nothing was saved"
            ),
            (
                .rateLimited(retryAfter: 41.5), 1,
                "too many token requests for this API key (HTTP 429); nothing was saved. Try again in 42 s."
            ),
            (
                .serverError("the token endpoint answered HTTP 503"), 1,
                "could not check the key and secret: the token endpoint answered HTTP 503; nothing was saved"
            ),
        ]
        for (result, code, message) in cases {
            let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret], checkResult: result)
            XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), code, "\(result)")
            XCTAssertTrue(recorder.err.first?.contains(message) == true, "\(recorder.err)")
            XCTAssertTrue(recorder.stored.isEmpty)
            XCTAssertFalse(FileManager.default.fileExists(atPath: config))
        }

        // --offline: no request; the tenant is asked for (a bad answer again), then the phone.
        let offline = LoginRecorder(
            lines: [
                TestCredentials.apiKey, TestCredentials.secret, TestCredentials.secret, TestJWT.tenant.uppercased(), "",
            ],
            checkResult: .unreachable("must not be asked"))
        XCTAssertEqual(LoginCommand.run(["--offline"], io: offline.io(configPath: config)), 0, "\(offline.err)")
        XCTAssertTrue(offline.checks.isEmpty)
        XCTAssertEqual(offline.prompts.filter { $0.0 == "Tenant id (the tenant's UUID): " }.count, 2)
        XCTAssertEqual(
            offline.err,
            ["relavoi-agent login: that is not a UUID (such as 5a4d0000-0000-4000-8000-00000000c0de); try again"],
            "the bad answer is not echoed")
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["tenant-id"], TestJWT.tenant)
        XCTAssertEqual(offline.stored.count, 1)
    }

    func testTenantFromEitherClaimOrAskedWhenAbsent() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let snake = LoginRecorder(
            lines: [TestCredentials.apiKey, TestCredentials.secret],
            checkResult: .accepted(accessToken: TestJWT.make(claims: #"{"tenant_id":"\#(TestJWT.tenant)"}"#)))
        XCTAssertEqual(LoginCommand.run([], io: snake.io(configPath: config)), 0)
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["tenant-id"], TestJWT.tenant)
        XCTAssertFalse(snake.prompts.contains { $0.0.hasPrefix("Tenant id") })

        // No claim: asked, and Enter keeps the configured one.
        let other = "11111111-2222-4333-8444-555555555555"
        try directory.file("agent.conf", "[agent]\ntenant-id = \(other)\n")
        let none = LoginRecorder(
            lines: [TestCredentials.apiKey, TestCredentials.secret, "", ""],
            checkResult: .accepted(accessToken: TestJWT.make(claims: #"{"sub":"x"}"#)))
        XCTAssertEqual(LoginCommand.run([], io: none.io(configPath: config)), 0)
        XCTAssertTrue(none.prompts.contains { $0.0 == "Tenant id (Enter keeps \(other)): " })
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["tenant-id"], other)

        // No claim, nothing configured, no answer: nothing saved.
        let empty = directory.path + "/empty.conf"
        let silent = LoginRecorder(
            lines: [TestCredentials.apiKey, TestCredentials.secret],
            checkResult: .accepted(accessToken: "not-a-jwt"))
        XCTAssertEqual(LoginCommand.run([], io: silent.io(configPath: empty)), 2)
        XCTAssertEqual(silent.err, ["relavoi-agent login: no tenant id given; nothing was saved"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty))
        XCTAssertTrue(silent.stored.isEmpty)
    }

    func testADifferentConfiguredTenantIsConfirmed() throws {
        let directory = try TemporaryDirectory()
        let other = "11111111-2222-4333-8444-555555555555"
        for (answer, expected) in [("n", other), ("maybe\ny", TestJWT.tenant), ("", TestJWT.tenant)] {
            let config = try directory.file("agent.conf", "[agent]\ntenant-id = \(other)\n")
            let lines =
                [TestCredentials.apiKey, TestCredentials.secret]
                + answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [""]
            let recorder = LoginRecorder(lines: lines)
            XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), 0, "\(recorder.err)")
            XCTAssertTrue(
                recorder.out.contains(
                    "agent.conf has tenant-id \(other), but this API key belongs to tenant \(TestJWT.tenant)."))
            XCTAssertEqual(try KeyFileText.load(config)["agent"]?["tenant-id"], expected, answer)
        }
    }

    func testPhoneIsCheckedAskedAgainAndNormalized() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let recorder = LoginRecorder(
            lines: [TestCredentials.apiKey, TestCredentials.secret, "12345", "+0123456789", "+234 800-000 0001"])
        XCTAssertEqual(LoginCommand.run([], io: recorder.io(configPath: config)), 0)
        XCTAssertEqual(recorder.prompts.filter { $0.0.hasPrefix("Your phone number") }.count, 3)
        XCTAssertEqual(recorder.err.count, 2)
        XCTAssertTrue(recorder.err.allSatisfy { $0.contains("not an E.164 number") && !$0.contains("12345") })
        XCTAssertEqual(try KeyFileText.load(config)["agent"]?["user-phone"], "+2348000000001")
        XCTAssertTrue(recorder.out.contains("Saved api-key, tenant-id, user-phone in \(config)."), "\(recorder.out)")

        // Given as an option: not asked; a bad one stops login before any question.
        let given = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        XCTAssertEqual(
            LoginCommand.run(
                ["--user-phone", "+2348011112222", "--base-url=http://127.0.0.1:9/v1"], io: given.io(configPath: config)
            ), 0)
        XCTAssertFalse(given.prompts.contains { $0.0.hasPrefix("Your phone") })
        XCTAssertEqual(given.checks.map(\.1), ["http://127.0.0.1:9/v1"])
        let saved = try KeyFileText.load(config)["agent"]
        XCTAssertEqual(saved?["user-phone"], "+2348011112222")
        XCTAssertEqual(saved?["base-url"], "http://127.0.0.1:9/v1")

        let bad = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        XCTAssertEqual(LoginCommand.run(["--user-phone=555"], io: bad.io(configPath: config)), 2)
        XCTAssertTrue(bad.prompts.isEmpty)
        XCTAssertTrue(bad.err.first?.contains("--user-phone: expected an E.164 number") == true, "\(bad.err)")
    }

    func testBaseURLOptionWinsAndPlainHTTPOnlyForLoopback() throws {
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let fromEnvironment = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        fromEnvironment.environment = ["RELAVOI_BASE_URL": "https://env.example.test/v1"]
        XCTAssertEqual(LoginCommand.run([], io: fromEnvironment.io(configPath: config)), 0)
        XCTAssertEqual(fromEnvironment.checks.map(\.1), ["https://env.example.test/v1"])
        XCTAssertNil(try KeyFileText.load(config)["agent"]?["base-url"], "the environment is not copied to the file")

        let insecure = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        XCTAssertEqual(
            LoginCommand.run(["--base-url", "http://api.example.test/v1"], io: insecure.io(configPath: config)), 2)
        XCTAssertTrue(insecure.checks.isEmpty)
        XCTAssertTrue(insecure.err.first?.hasPrefix("relavoi-agent login: base-url:") == true, "\(insecure.err)")
    }

    func testAccessTokenClaims() {
        XCTAssertEqual(AccessTokenClaims(jwt: TestJWT.make())?.tenantId, TestJWT.tenant)
        XCTAssertEqual(AccessTokenClaims(jwt: TestJWT.make(claims: #"{"tenantId":"ab"}"#))?.tenantId, "ab")
        // Padding may be kept; "-" and "_" are base64url's own characters.
        let padded = Data(#"{"tenantId":"x>>?"}"#.utf8).base64EncodedString()
        XCTAssertTrue(padded.hasSuffix("="))
        XCTAssertEqual(AccessTokenClaims(jwt: "h.\(padded).s")?.tenantId, "x>>?")
        XCTAssertEqual(AccessTokenClaims(jwt: "h.\(TestJWT.base64URL(#"{"tenantId":"x>>?"}"#)).s")?.tenantId, "x>>?")
        XCTAssertNil(AccessTokenClaims(jwt: TestJWT.make(claims: #"{"tenantId":7}"#))?.tenantId)
        for broken in [
            "", "a.b", "a.b.c.d", "h.!!!.s", "h.\(TestJWT.base64URL("[1]")).s", "h.\(TestJWT.base64URL("{")).s",
        ] {
            XCTAssertNil(AccessTokenClaims(jwt: broken), broken)
        }
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
