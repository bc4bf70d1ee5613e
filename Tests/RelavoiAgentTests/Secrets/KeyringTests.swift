import Foundation
import RelavoiClient
import RelavoiGLib
import XCTest

@testable import RelavoiAgentKit

/// libsecret against a real gnome-keyring-daemon on the private test bus.
final class KeyringTests: XCTestCase {
    /// A running test keyring holding `TestCredentials.secret` for `TestCredentials.apiKey`.
    private static func keyringWithTheTestSecret() throws -> TestKeyring {
        let keyring = try TestKeyring.start()
        do {
            try Keyring.store(
                secret: APISecret(TestCredentials.secret), apiKey: TestCredentials.apiKey,
                label: "Relavoi API secret (test)", timeout: 10)
        } catch {
            keyring.stop()
            throw error
        }
        return keyring
    }

    func testStoreLookupReplaceAndClear() throws {
        let keyring = try TestKeyring.start()
        defer { keyring.stop() }
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .notFound)
        try Keyring.store(
            secret: APISecret(TestCredentials.secret), apiKey: TestCredentials.apiKey,
            label: "Relavoi API secret (test)",
            timeout: 10)
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .found(APISecret(TestCredentials.secret)))
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.otherKey), .notFound, "one item per API key")
        // Storing again for the same key replaces the item.
        try Keyring.store(secret: APISecret("rs_second"), apiKey: TestCredentials.apiKey, label: "again", timeout: 10)
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .found(APISecret("rs_second")))
        XCTAssertTrue(try Keyring.clear(apiKey: TestCredentials.apiKey))
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .notFound)
    }

    func testSecretSourcePrefersTheKeyring() throws {
        let keyring = try Self.keyringWithTheTestSecret()
        defer { keyring.stop() }
        let source = SecretSource(
            apiKey: TestCredentials.apiKey, environment: [SecretSource.secretVariable: "rs_from_the_environment"])
        let resolved = try source.resolve()
        XCTAssertEqual(resolved.origin, .keyring)
        XCTAssertEqual(resolved.secret.value, TestCredentials.secret)
        // Another key has no item: the environment is next.
        var other = source
        other.apiKey = TestCredentials.otherKey
        XCTAssertEqual(try other.resolve().origin, .environment)
    }

    func testLockedKeyringFallsThroughToTheNextSource() throws {
        let keyring = try Self.keyringWithTheTestSecret()
        defer { keyring.stop() }
        // Lock every collection, as a locked desktop keyring is; unlocking
        // would need a prompt, which nobody answers here.
        let lock = Process()
        lock.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        lock.arguments = [
            "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", "/org/freedesktop/secrets",
            "--method", "org.freedesktop.Secret.Service.Lock",
            "['/org/freedesktop/secrets/collection/login', '/org/freedesktop/secrets/collection/session']",
        ]
        lock.standardOutput = FileHandle.nullDevice
        lock.standardError = FileHandle.nullDevice
        try lock.run()
        lock.waitUntilExit()
        let source = SecretSource(
            apiKey: TestCredentials.apiKey, environment: [SecretSource.secretVariable: "rs_from_the_environment"],
            keyringTimeout: 3)
        // Bounded in time: it returns at all (a prompt nobody answers would hang it); no clock is compared.
        let resolved = try source.resolve()
        XCTAssertEqual(resolved.origin, .environment, "the locked item is not read; the next source is used")
        XCTAssertEqual(resolved.secret.value, "rs_from_the_environment")
    }

    func testHungKeyringIsBoundedInTime() throws {
        let keyring = try TestKeyring.start()
        defer { keyring.stop() }
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .notFound)  // the session is open
        keyring.pause()
        defer { keyring.resume() }
        let started = Date()
        let result = Keyring.lookup(apiKey: TestCredentials.apiKey, timeout: 1)
        let took = Date().timeIntervalSince(started)
        // The timeout path answered (not the keyring, not a hang); the clock can only say it waited.
        XCTAssertEqual(result, .unavailable("the keyring did not answer within 1 s"))
        XCTAssertGreaterThanOrEqual(took, 0.9)
    }

    func testLoginStoresTheSecretInTheKeyring() throws {
        let keyring = try TestKeyring.start()
        defer { keyring.stop() }
        let directory = try TemporaryDirectory()
        let config = directory.path + "/relavoi/agent.conf"
        let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        let io = recorder.ioStoringInTheKeyring(configPath: config, timeout: 10)
        XCTAssertEqual(LoginCommand.run([], io: io), 0, "\(recorder.err)")
        XCTAssertEqual(Keyring.lookup(apiKey: TestCredentials.apiKey), .found(APISecret(TestCredentials.secret)))
        XCTAssertTrue(recorder.out.contains("Saved api-key, tenant-id in \(config)."), "\(recorder.out)")
        XCTAssertTrue(
            recorder.out.contains("Stored the API secret in the keyring as \"Relavoi API secret (rk_test_0123…)\"."),
            "\(recorder.out)")
        XCTAssertFalse((recorder.out + recorder.err).joined().contains(TestCredentials.secret))
    }
}

/// With no secret service on the bus the lookup falls through at once.
final class KeyringAbsentTests: XCTestCase {
    func testNoSecretServiceIsUnavailableQuickly() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        guard !TestKeyring.hasOwner() else { throw XCTSkip("a secret service runs on this bus") }
        guard case .unavailable(let reason) = Keyring.lookup(apiKey: TestCredentials.apiKey) else {
            return XCTFail("a lookup without a secret service should be unavailable")
        }
        XCTAssertFalse(reason.isEmpty)
        // ... and the source goes on to the environment.
        let source = SecretSource(apiKey: TestCredentials.apiKey, environment: [SecretSource.secretVariable: "rs_env"])
        XCTAssertEqual(try source.resolve().origin, .environment)
    }

    func testLoginWithoutKeyringSuggestsAPrivateFile() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        guard !TestKeyring.hasOwner() else { throw XCTSkip("a secret service runs on this bus") }
        let directory = try TemporaryDirectory()
        let config = directory.path + "/agent.conf"
        let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret])
        let io = recorder.ioStoringInTheKeyring(configPath: config, timeout: 5)
        XCTAssertEqual(LoginCommand.run([], io: io), 1)
        let err = recorder.err.joined(separator: "\n")
        XCTAssertTrue(err.contains("the API secret was NOT stored: no usable keyring"), err)
        XCTAssertTrue(err.contains("RELAVOI_API_SECRET_FILE"), err)
        XCTAssertTrue(err.contains("chmod 600"), err)
        XCTAssertFalse(err.contains(TestCredentials.secret))
        XCTAssertTrue(recorder.out.contains("Saved api-key, tenant-id in \(config)."), "\(recorder.out)")
        XCTAssertFalse(recorder.out.contains { $0.hasPrefix("Stored") || $0.hasPrefix("Start the agent") })
    }
}

extension LoginRecorder {
    /// The recorder's login IO, storing the secret in the real keyring.
    fileprivate func ioStoringInTheKeyring(configPath: String, timeout: Double) -> LoginCommand.IO {
        var io = io(configPath: configPath)
        io.storeSecret = { (secret, apiKey, label) throws(Keyring.StoreError) in
            try Keyring.store(secret: secret, apiKey: apiKey, label: label, timeout: timeout)
        }
        return io
    }
}
