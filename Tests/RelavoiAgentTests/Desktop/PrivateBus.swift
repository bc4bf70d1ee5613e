import CGLib
import Foundation
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// A dbus-daemon of the test's own (scripts/session-bus.conf: no service
/// directories), standing in for the system bus or for a user's session bus
/// that goes away at logout.
final class PrivateBus {
    let daemon = Process()
    let address: String
    private let connection: OpaquePointer
    private var mocks: [Process] = []

    static var configPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/session-bus.conf")
            .path
    }

    init() throws {
        let output = Pipe()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(Self.configPath)", "--nofork", "--print-address=1"]
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        do {
            try daemon.run()
        } catch {
            throw XCTSkip("cannot start dbus-daemon: \(error)")
        }
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw XCTSkip("dbus-daemon printed no address") }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            g_error_free(error)
            daemon.terminate()
            throw XCTSkip("cannot connect to the private bus")
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
    }

    deinit {
        stop()
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Ends the mocks and the bus.
    func stop() {
        for mock in mocks where mock.isRunning {
            mock.terminate()
            mock.waitUntilExit()
        }
        mocks = []
        kill()
    }

    /// Ends only the bus (what logout does to a session bus); the mocks on it lose their connection.
    func kill() {
        guard daemon.isRunning else { return }
        daemon.terminate()
        daemon.waitUntilExit()
    }

    /// `python3 -m dbusmock --template NAME` on this bus, as its system bus or session bus;
    /// returns once `busName` is owned.
    @discardableResult
    func startMock(template: String, busName: String, system: Bool, log: URL? = nil) throws -> Process {
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = ["-m", "dbusmock"]
        if system { arguments.append("--system") }
        arguments += ["--template", template]
        if let log { arguments += ["-l", log.path] }
        mock.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[system ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS"] = address
        mock.environment = environment
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        do {
            try mock.run()
        } catch {
            throw XCTSkip("cannot run python3-dbusmock: \(error)")
        }
        mocks.append(mock)
        guard LoopWait.until(timeout: 15, { self.hasOwner(busName) }) else {
            throw XCTSkip("python3-dbusmock's \(template) template did not start")
        }
        return mock
    }

    func hasOwner(_ name: String) -> Bool {
        guard
            let reply = call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                [g_variant_new_string(name)])
        else { return false }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// A synchronous call (tests only); the reply tuple, or nil on error.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [OpaquePointer]
    ) -> OpaquePointer? {
        let body = arguments.map(Optional.some).withUnsafeBufferPointer {
            g_variant_new_tuple($0.baseAddress, gsize($0.count))
        }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, destination, path, interface, method, body, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil,
            &error)
        if let error { g_error_free(error) }
        return reply
    }

    /// `org.freedesktop.DBus.Mock.EmitSignal` on a dbusmock object.
    func emitSignal(
        destination: String, path: String, interface: String, name: String, signature: String,
        arguments: [OpaquePointer]
    ) {
        let boxed = arguments.map { Optional.some(g_variant_new_variant($0)!) }
        let type = g_variant_type_new("v")!
        defer { g_variant_type_free(type) }
        let array = boxed.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count))! }
        let reply = call(
            destination, path, "org.freedesktop.DBus.Mock", "EmitSignal",
            [g_variant_new_string(interface), g_variant_new_string(name), g_variant_new_string(signature), array])
        XCTAssertNotNil(reply, "EmitSignal \(name) failed")
        if let reply { g_variant_unref(reply) }
    }
}

/// python3-dbusmock's logind (`--template logind`) on a private system bus.
final class MockLogind {
    static let busName = "org.freedesktop.login1"
    let bus: PrivateBus
    private var process: Process

    init(bus: PrivateBus) throws {
        self.bus = bus
        process = try bus.startMock(template: "logind", busName: Self.busName, system: true)
    }

    /// A new logind (knowing of no lock) once the old one's name is gone.
    func restart() throws {
        process.terminate()
        process.waitUntilExit()
        XCTAssertTrue(LoopWait.until(timeout: 30) { !self.bus.hasOwner(Self.busName) }, "logind's name stayed")
        process = try bus.startMock(template: "logind", busName: Self.busName, system: true)
    }

    func prepareForSleep(_ start: Bool) {
        bus.emitSignal(
            destination: "org.freedesktop.login1", path: "/org/freedesktop/login1",
            interface: "org.freedesktop.login1.Manager", name: "PrepareForSleep", signature: "b",
            arguments: [g_variant_new_boolean(start ? 1 : 0)])
    }

    /// `ListInhibitors`: (what, who, why, mode) of each lock held.
    func inhibitors() -> [[String]] {
        guard
            let reply = bus.call(
                "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                "ListInhibitors", [])
        else { return [] }
        defer { g_variant_unref(reply) }
        let list = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(list) }
        return (0..<g_variant_n_children(list)).map { index in
            let entry = g_variant_get_child_value(list, index)!
            defer { g_variant_unref(entry) }
            return (0..<4).map { field in
                let value = g_variant_get_child_value(entry, gsize(field))!
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            }
        }
    }

    /// Whether the agent holds its sleep delay lock.
    var agentHoldsSleepLock: Bool {
        inhibitors().contains { $0 == ["sleep", "Relavoi", "Close the call stream before the system sleeps", "delay"] }
    }
}

/// python3-dbusmock's NetworkManager (`--template networkmanager`) on a
/// private system bus; GIO's NetworkManager monitor follows its `State`
/// when the agent runs with `GIO_USE_NETWORK_MONITOR=networkmanager`.
final class MockNetworkManager {
    static let connectedGlobal: UInt32 = 70
    static let disconnected: UInt32 = 20
    let bus: PrivateBus

    init(bus: PrivateBus) throws {
        self.bus = bus
        try bus.startMock(template: "networkmanager", busName: "org.freedesktop.NetworkManager", system: true)
    }

    func setState(_ state: UInt32) {
        let reply = bus.call(
            "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager", "org.freedesktop.DBus.Mock",
            "SetGlobalConnectionState", [g_variant_new_uint32(state)])
        XCTAssertNotNil(reply, "SetGlobalConnectionState failed")
        if let reply { g_variant_unref(reply) }
    }
}
