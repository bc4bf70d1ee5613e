import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// gnome-keyring-daemon (secrets component only) on the test's private
/// session bus, with a fresh login keyring unlocked by a password on stdin.
final class TestKeyring {
    static let executable = "/usr/bin/gnome-keyring-daemon"
    static let busName = "org.freedesktop.secrets"

    let process = Process()
    let home: URL

    /// Starts the daemon and waits until it owns `org.freedesktop.secrets`.
    static func start() throws -> TestKeyring {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw XCTSkip("gnome-keyring is not installed (Debian package gnome-keyring)")
        }
        guard !hasOwner() else { throw XCTSkip("another secret service already runs on this bus") }
        let keyring = try TestKeyring()
        guard LoopWait.until(timeout: 15, { hasOwner() }) else {
            keyring.stop()
            throw XCTSkip("gnome-keyring-daemon did not start on the test bus")
        }
        return keyring
    }

    private init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-keyring-\(UUID().uuidString)")
        let runtime = home.appendingPathComponent("run")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--unlock", "--components=secrets", "--foreground"]
        process.environment = environment
        let password = Pipe()
        process.standardInput = password
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        password.fileHandleForWriting.write(Data("relavoi-test-password".utf8))
        try password.fileHandleForWriting.close()
    }

    deinit { stop() }

    func pause() { kill(process.processIdentifier, SIGSTOP) }
    func resume() { kill(process.processIdentifier, SIGCONT) }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            process.waitUntilExit()
            _ = LoopWait.until(timeout: 5) { !Self.hasOwner() }
        }
        try? FileManager.default.removeItem(at: home)
    }

    /// Whether a secret service owns its name on the session bus.
    static func hasOwner() -> Bool {
        guard let bus = try? BusConnection.session() else { return false }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus.pointer, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            [Optional(g_variant_new_string(busName))].withUnsafeBufferPointer {
                g_variant_new_tuple($0.baseAddress, 1)
            },
            nil, G_DBUS_CALL_FLAGS_NONE, 3000, nil, &error)
        if let error { g_error_free(error) }
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }
}

/// Made-up credentials of the real shapes.
enum TestCredentials {
    static let apiKey = "rk_test_" + String(repeating: "0123456789ab", count: 4)
    static let otherKey = "rk_live_" + String(repeating: "ba9876543210", count: 4)
    static let secret = "rs_" + String(repeating: "feedface", count: 8)
}
