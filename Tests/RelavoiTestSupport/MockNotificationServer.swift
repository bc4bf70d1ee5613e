import CGLib
import Foundation
import RelavoiGLib
import XCTest

/// python3-dbusmock's notification daemon on the test's private session bus
/// (`make test` runs the tests under `dbus-run-session`).
public final class MockNotificationServer {
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

        /// The "mm:ss" after the body's "· " (a live banner's timer); nil when there is none.
        public var timerText: String? {
            guard let range = body.range(of: "· ") else { return nil }
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
    public static func start(capabilities: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> MockNotificationServer
    {
        let server = try MockNotificationServer(capabilities: capabilities)
        let owned = LoopWait.until(timeout: 15) { server.hasOwner() }
        guard owned else {
            server.stop()
            throw XCTSkip("python3-dbusmock did not start (is `make test` running the tests on a private bus?)")
        }
        return server
    }

    private init(capabilities: String?) throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test`")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_error_free(error)
            throw XCTSkip("cannot reach the session bus")
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

    /// How long a test waits for a banner by default: generous, as a wait
    /// ends when the banner comes.
    public static let notifyWaitTimeout = 30.0

    /// Waits for a `Notify` call matching `predicate` and returns the latest
    /// such; when none comes, fails the test with the calls so far and `context`
    /// (the agent's log, say).
    @discardableResult
    public func waitForNotify(
        timeout: Double = notifyWaitTimeout, context: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line, _ predicate: @escaping (NotifyCall) -> Bool
    ) -> NotifyCall? {
        var found: NotifyCall?
        let ok = LoopWait.until(timeout: timeout) {
            found = self.notifyCalls().last(where: predicate)
            return found != nil
        }
        if !ok {
            let calls = notifyCalls().map { "\($0.summary)|\($0.body)|\($0.hints["category"] ?? "")" }
            XCTFail("no matching Notify; calls: \(calls)\n\(context())", file: file, line: line)
        }
        return found
    }

    /// Every `Notify` call so far, in order.
    public func notifyCalls() -> [NotifyCall] {
        methodCalls("Notify").map { args in
            var hints: [String: String] = [:]
            let dict = args[6]
            for index in 0..<g_variant_n_children(dict) {
                let entry = g_variant_get_child_value(dict, index)!
                let key = String(cString: g_variant_get_string(g_variant_get_child_value(entry, 0), nil))
                let boxed = g_variant_get_child_value(entry, 1)!
                let value = g_variant_get_variant(boxed)!
                if g_variant_is_of_type(value, VariantType.string) != 0 {
                    hints[key] = String(cString: g_variant_get_string(value, nil))
                } else {
                    let printed = g_variant_print(value, 1)!
                    hints[key] = String(cString: printed)
                    g_free(printed)
                }
            }
            return NotifyCall(
                appName: string(args[0]), replacesId: g_variant_get_uint32(args[1]), icon: string(args[2]),
                summary: string(args[3]), body: string(args[4]), hints: hints, timeout: g_variant_get_int32(args[7]),
                actions: (0..<g_variant_n_children(args[5])).map { string(g_variant_get_child_value(args[5], $0)) })
        }
    }

    /// The ids passed to `CloseNotification`.
    public func closeCalls() -> [UInt32] {
        methodCalls("CloseNotification").map { UInt32(bitPattern: g_variant_get_int32($0[0])) }
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

    private func methodCalls(_ method: String) -> [[OpaquePointer]] {
        guard
            let reply = call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.DBus.Mock", method: "GetMethodCalls",
                parameters: g_variant_new_string(method))
        else { return [] }
        let list = g_variant_get_child_value(reply, 0)!
        var calls: [[OpaquePointer]] = []
        for index in 0..<g_variant_n_children(list) {
            let entry = g_variant_get_child_value(list, index)!
            let args = g_variant_get_child_value(entry, 1)!
            var values: [OpaquePointer] = []
            for arg in 0..<g_variant_n_children(args) {
                values.append(g_variant_get_variant(g_variant_get_child_value(args, arg))!)
            }
            calls.append(values)
        }
        return calls
    }

    private func string(_ value: OpaquePointer) -> String { String(cString: g_variant_get_string(value, nil)) }

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

/// Runs main-actor async work to completion while the test thread drives the GLib loop.
public func runOnLoop<T: Sendable>(timeout: Double = 20, _ body: @escaping @MainActor () async throws -> T) throws -> T
{
    let box = ResultBox<T>()
    Task { @MainActor in
        do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
    }
    guard LoopWait.until(timeout: timeout, { box.result != nil }) else {
        throw LoopTimeout()
    }
    return try box.result!.get()
}

public final class ResultBox<T: Sendable>: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var stored: Result<T, Error>?
    public var result: Result<T, Error>? { lock.withLock { stored } }
    public func set(_ value: Result<T, Error>) { lock.withLock { stored = value } }
}

public struct LoopTimeout: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the main-loop work did not finish in time" }
}
