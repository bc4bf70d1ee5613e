import CGLib
import Foundation
import RelavoiGLib

/// python3-dbusmock's notification daemon on a private session bus (`make test`
/// runs the tests under `dbus-run-session`, the bench and the soak their own):
/// started, stopped, paused, asked what it was sent and made to answer as
/// another server would. The tests' XCTest side (skips, `waitForNotify`) is in
/// RelavoiXCTestSupport.
public final class MockNotificationServer {
    /// No session bus, or the daemon did not take its name (python3-dbusmock missing).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// One call the server got.
    public enum Received: Equatable {
        case notify(NotifyCall)
        /// `CloseNotification` of this id.
        case close(id: UInt32)
        case other(method: String)
    }

    public struct NotifyCall: Equatable {
        public var appName: String
        public var replacesId: UInt32
        public var icon: String
        public var summary: String
        public var body: String
        /// Hints as text: strings bare, others as GVariant text (`true`, `byte 0x01`).
        public var hints: [String: String]
        public var timeout: Int32
        /// Action ids and labels, alternating (`["default", "Open"]`).
        public var actions: [String] = []

        /// The "mm:ss" after the body's first ", " (a live banner's timer); nil when there is none.
        public var timerText: String? {
            guard let range = body.range(of: ", ") else { return nil }
            let text = String(body[range.upperBound...].prefix(5))
            return timerSeconds(text) == nil ? nil : text
        }

        /// The timer in seconds. Wait for "at least N": a loaded machine may
        /// skip a second's tick (00:01, then 00:03).
        public var timerSeconds: Int? { timerText.flatMap(timerSeconds) }

        private func timerSeconds(_ text: String) -> Int? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, parts[1].count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1])
            else { return nil }
            return minutes * 60 + seconds
        }
    }

    public let process: Process
    public let logURL: URL
    private let bus: OpaquePointer

    /// Starts the mock and waits until it owns `org.freedesktop.Notifications`.
    public static func launch(capabilities: String? = nil) throws -> MockNotificationServer {
        let server = try MockNotificationServer(capabilities: capabilities)
        guard LoopWait.until(timeout: 15, { server.hasOwner() }) else {
            server.stop()
            throw Unavailable(
                description: "python3-dbusmock did not start (is it installed, and is there a private session bus?)")
        }
        return server
    }

    private init(capabilities: String?) throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw Unavailable(description: "no session bus: run through `make test`")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_error_free(error)
            throw Unavailable(description: "cannot reach the session bus")
        }
        self.bus = bus
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("dbusmock-\(UUID().uuidString).log")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = ["-m", "dbusmock", "--template", "notification_daemon", "-l", logURL.path]
        if let capabilities {
            arguments += ["-p", "{\"capabilities\": \"\(capabilities)\"}"]
        }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.hasOwner() }
        try? FileManager.default.removeItem(at: logURL)
    }

    public func pause() { kill(process.processIdentifier, SIGSTOP) }
    public func resume() { kill(process.processIdentifier, SIGCONT) }

    public func hasOwner() -> Bool {
        guard
            let reply = call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                method: "NameHasOwner", parameters: g_variant_new_string("org.freedesktop.Notifications"))
        else { return false }
        defer { g_variant_unref(reply) }
        return g_variant_get_boolean(g_variant_get_child_value(reply, 0)) != 0
    }

    /// The latest `Notify` call matching `predicate`, waiting for one up to
    /// `timeout` seconds; nil when none came.
    public func latestNotify(timeout: Double, _ predicate: (NotifyCall) -> Bool) -> NotifyCall? {
        var found: NotifyCall?
        _ = LoopWait.until(timeout: timeout) {
            found = self.notifyCalls().last(where: predicate)
            return found != nil
        }
        return found
    }

    /// Every `Notify` call so far, in order.
    public func notifyCalls() -> [NotifyCall] {
        received().compactMap { if case .notify(let call) = $0 { call } else { nil } }
    }

    /// The ids passed to `CloseNotification`.
    public func closeCalls() -> [UInt32] {
        received().compactMap { if case .close(let id) = $0 { id } else { nil } }
    }

    /// Every call the server got so far, in order (`org.freedesktop.DBus.Mock.GetCalls`).
    public func received() -> [Received] {
        guard
            let reply = call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.DBus.Mock", method: "GetCalls", parameters: nil)
        else { return [] }
        defer { g_variant_unref(reply) }
        let list = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(list) }
        return (0..<g_variant_n_children(list)).map { index in
            let entry = g_variant_get_child_value(list, index)!
            let name = g_variant_get_child_value(entry, 1)!
            let boxed = g_variant_get_child_value(entry, 2)!
            let args = (0..<g_variant_n_children(boxed)).map { arg in
                let variant = g_variant_get_child_value(boxed, arg)!
                defer { g_variant_unref(variant) }
                return g_variant_get_variant(variant)!
            }
            defer {
                args.forEach { g_variant_unref($0) }
                [boxed, name, entry].forEach { g_variant_unref($0) }
            }
            let method = Self.string(name)
            switch method {
            case "Notify" where args.count == 8: return .notify(Self.notifyCall(args))
            case "CloseNotification" where args.count == 1: return .close(id: Self.unsigned(args[0]))
            default: return .other(method: method)
            }
        }
    }

    /// An id as dbusmock hands it back: `u`, or `i` where it lost the type.
    private static func unsigned(_ value: OpaquePointer) -> UInt32 {
        GVariantValues.hasType(value, "u")
            ? g_variant_get_uint32(value) : UInt32(bitPattern: g_variant_get_int32(value))
    }

    /// `(susssasa{sv}i)` as a `NotifyCall`.
    private static func notifyCall(_ args: [OpaquePointer]) -> NotifyCall {
        var hints: [String: String] = [:]
        for index in 0..<g_variant_n_children(args[6]) {
            let entry = g_variant_get_child_value(args[6], index)!
            let key = g_variant_get_child_value(entry, 0)!
            let boxed = g_variant_get_child_value(entry, 1)!
            let value = g_variant_get_variant(boxed)!
            if g_variant_is_of_type(value, VariantType.string) != 0 {
                hints[string(key)] = string(value)
            } else {
                let printed = g_variant_print(value, 1)!
                hints[string(key)] = String(cString: printed)
                g_free(printed)
            }
            [value, boxed, key, entry].forEach { g_variant_unref($0) }
        }
        let actions = (0..<g_variant_n_children(args[5])).map { index in
            let action = g_variant_get_child_value(args[5], index)!
            defer { g_variant_unref(action) }
            return string(action)
        }
        return NotifyCall(
            appName: string(args[0]), replacesId: g_variant_get_uint32(args[1]), icon: string(args[2]),
            summary: string(args[3]), body: string(args[4]), hints: hints, timeout: g_variant_get_int32(args[7]),
            actions: actions)
    }

    /// Pretends the user (reason 2) or the server closed notification `id`.
    public func emitClosed(id: UInt32, reason: UInt32) {
        let args = [
            g_variant_new_variant(g_variant_new_uint32(id)), g_variant_new_variant(g_variant_new_uint32(reason)),
        ]
        let array = args.withUnsafeBufferPointer { g_variant_new_array(VariantType.variant, $0.baseAddress, 2) }
        let parameters = [
            g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string("NotificationClosed"),
            g_variant_new_string("uu"), array,
        ]
        let tuple = parameters.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        if let reply = call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.DBus.Mock", method: "EmitSignal", parameters: tuple, wrap: false)
        {
            g_variant_unref(reply)
        }
    }

    /// Pretends the user clicked notification `id`: `ActivationToken` with
    /// `token`, then `ActionInvoked` with `action`, as GNOME Shell and KDE send them.
    public func emitActionInvoked(id: UInt32, action: String = "default", token: String) {
        emit("ActivationToken", "us", [g_variant_new_uint32(id), g_variant_new_string(token)])
        emit("ActionInvoked", "us", [g_variant_new_uint32(id), g_variant_new_string(action)])
    }

    private func emit(_ name: String, _ signature: String, _ values: [OpaquePointer?]) {
        let args = values.map { g_variant_new_variant($0) }
        let array = args.withUnsafeBufferPointer {
            g_variant_new_array(VariantType.variant, $0.baseAddress, gsize(args.count))
        }
        let parameters = [
            g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string(name),
            g_variant_new_string(signature), array,
        ]
        let tuple = parameters.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 4) }
        if let reply = call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.DBus.Mock", method: "EmitSignal", parameters: tuple, wrap: false)
        {
            g_variant_unref(reply)
        }
    }

    /// Adds a boolean property to the server's interface (e.g. KDE's `Inhibited`).
    public func addBooleanProperty(_ name: String, _ value: Bool) {
        let parameters = [
            g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string(name),
            g_variant_new_variant(g_variant_new_boolean(value ? 1 : 0)),
        ]
        let tuple = parameters.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
        if let reply = call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.DBus.Mock", method: "AddProperty", parameters: tuple, wrap: false)
        {
            g_variant_unref(reply)
        }
    }

    /// Answers `GetServerInformation` as another server would (e.g. GNOME Shell 48.7).
    public func pretend(name: String, vendor: String, version: String) {
        func quoted(_ text: String) -> String { "\"" + text.filter { $0 != "\"" && $0 != "\\" } + "\"" }
        replaceMethod(
            "GetServerInformation", in: "", out: "ssss",
            code: "ret = (\(quoted(name)), \(quoted(vendor)), \(quoted(version)), \"1.2\")")
    }

    /// Answers every `Notify` with a new id after `delay` seconds, as a
    /// server does for an id it no longer shows (GNOME Shell makes a new one).
    public func numberEveryNotifyAnew(after delay: Double = 0) {
        replaceMethod(
            "Notify", in: "susssasa{sv}i", out: "u",
            code: "import time\ntime.sleep(\(delay))\nret = self.next_id\nself.next_id += 1")
    }

    /// Replaces one of the server's methods with Python `code` (dbusmock's `AddMethod`).
    public func replaceMethod(_ name: String, in inSignature: String, out outSignature: String, code: String) {
        let parameters = [
            g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string(name),
            g_variant_new_string(inSignature), g_variant_new_string(outSignature), g_variant_new_string(code),
        ]
        let tuple = parameters.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 5) }
        if let reply = call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.DBus.Mock", method: "AddMethod", parameters: tuple, wrap: false)
        {
            g_variant_unref(reply)
        }
    }

    public func clearCalls() {
        if let reply = call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.DBus.Mock", method: "ClearCalls", parameters: nil)
        {
            g_variant_unref(reply)
        }
    }

    private static func string(_ value: OpaquePointer) -> String { String(cString: g_variant_get_string(value, nil)) }

    /// A synchronous call with a short timeout; a single parameter is wrapped in a tuple.
    private func call(
        destination: String, path: String, interface: String, method: String, parameters: OpaquePointer?,
        wrap: Bool = true
    ) -> OpaquePointer? {
        var body = parameters
        if wrap, let single = parameters {
            body = [single].withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 1) }
        }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, destination, path, interface, method, body, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000,
            nil, &error)
        if let error { g_error_free(error) }
        return reply
    }
}
