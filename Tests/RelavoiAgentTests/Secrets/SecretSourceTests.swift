import Foundation
import RelavoiAgentKit
import RelavoiClient
import XCTest

/// Keyring, then a private file, then the environment; never the secret in an error.
final class SecretSourceTests: XCTestCase {
    private let secret = TestCredentials.secret

    private func source(
        keyring: Keyring.LookupResult, environment: [String: String] = [:], settingsFile: String? = nil,
        apiKey: String? = TestCredentials.apiKey
    ) -> (SecretSource, LookupLog) {
        let log = LookupLog()
        let source = SecretSource(
            apiKey: apiKey, settingsSecretFile: settingsFile, environment: environment, keyringTimeout: 2,
            keyringLookup: { key, timeout in
                log.record(key, timeout)
                return keyring
            })
        return (source, log)
    }

    func testKeyringComesFirst() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("secret", "rs_file")
        let (source, log) = self.source(
            keyring: .found(APISecret(secret)),
            environment: [SecretSource.fileVariable: file, SecretSource.secretVariable: "rs_env"])
        let resolved = try source.resolve()
        XCTAssertEqual(resolved, SecretSource.Resolved(secret: APISecret(secret), origin: .keyring))
        XCTAssertEqual(log.calls, ["\(TestCredentials.apiKey) 2.0"])
    }

    func testUnavailableKeyringFallsThroughToTheFile() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("secret", secret + "\n")
        let (source, _) = self.source(
            keyring: .unavailable("no secret service"),
            environment: [SecretSource.fileVariable: file, SecretSource.secretVariable: "rs_env"])
        XCTAssertEqual(
            try source.resolve(), SecretSource.Resolved(secret: APISecret(secret), origin: .file(path: file)))
    }

    func testEnvironmentFileWinsOverTheSettingsFileAndHomeIsExpanded() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("secret", secret)
        let (fromSettings, _) = self.source(
            keyring: .notFound, environment: ["HOME": directory.path], settingsFile: "~/secret")
        XCTAssertEqual(try fromSettings.resolve().origin, .file(path: file))
        let (both, _) = self.source(
            keyring: .notFound, environment: [SecretSource.fileVariable: file], settingsFile: "/nonexistent")
        XCTAssertEqual(try both.resolve().origin, .file(path: file))
    }

    func testRefusedFileIsAnErrorNotAFallback() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("secret", secret, mode: 0o644)
        let (source, _) = self.source(
            keyring: .notFound, environment: [SecretSource.fileVariable: file, SecretSource.secretVariable: secret])
        XCTAssertThrowsError(try source.resolve()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("group or others may access it (mode 644)"), text)
            XCTAssertTrue(text.contains("chmod 600"), text)
            XCTAssertFalse(text.contains(secret), text)
        }
    }

    func testEnvironmentIsLast() throws {
        let (source, _) = self.source(keyring: .notFound, environment: [SecretSource.secretVariable: secret])
        XCTAssertEqual(try source.resolve(), SecretSource.Resolved(secret: APISecret(secret), origin: .environment))
        let (noKey, log) = self.source(
            keyring: .found(APISecret("rs_unused")), environment: [SecretSource.secretVariable: secret], apiKey: nil)
        XCTAssertEqual(try noKey.resolve().origin, .environment)
        XCTAssertEqual(log.calls, [], "no API key: nothing to look up")
    }

    func testNothingFoundSaysWhatToDo() {
        let (source, _) = self.source(
            keyring: .unavailable("the keyring did not answer within 5 s"),
            environment: [SecretSource.secretVariable: ""])
        XCTAssertThrowsError(try source.resolve()) { error in
            XCTAssertEqual(
                "\(error)",
                "no API secret (keyring unavailable: the keyring did not answer within 5 s; RELAVOI_API_SECRET_FILE "
                    + "and RELAVOI_API_SECRET are not set): run `relavoi-agent login`, or point "
                    + "RELAVOI_API_SECRET_FILE at a file only you can read (chmod 600)")
        }
    }

    func testResolvedSecretDoesNotPrint() throws {
        let (source, _) = self.source(keyring: .found(APISecret(secret)))
        let resolved = try source.resolve()
        XCTAssertFalse("\(resolved)".contains(secret))
        XCTAssertFalse(String(reflecting: resolved).contains(secret))
    }
}

final class LookupLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func record(_ key: String, _ timeout: Double) { lock.withLock { stored.append("\(key) \(timeout)") } }
    var calls: [String] { lock.withLock { stored } }
}
