import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// A second connection to the private test bus that calls the service
/// asynchronously while the test turns the main loop (a synchronous call to
/// a service on this thread's loop would deadlock), and records signals.
final class BusTestClient {
    struct Reply {
        /// The reply body, owned (unref'd by the client's deinit).
        var value: OpaquePointer?
        var errorName: String?
        var errorMessage: String?
        var isError: Bool { errorName != nil }
    }

    struct Signal: Equatable {
        var interface: String
        var member: String
        /// The body printed by `g_variant_print` (types annotated).
        var body: String
    }

    private final class PendingCall {
        var done = false
        var reply = Reply()
    }

    private final class SignalLog {
        var signals: [Signal] = []
    }

    let connection: BusConnection
    let destination: String
    private let signalLog = SignalLog()
    private var subscriptions: [guint] = []
    private var owned: [OpaquePointer] = []

    init(destination: String) throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        connection = try BusConnection.privateSession()
        self.destination = destination
    }

    deinit {
        for id in subscriptions { g_dbus_connection_signal_unsubscribe(connection.pointer, id) }
        for value in owned { g_variant_unref(value) }
        connection.close()
    }

    /// Calls `method` and turns the main loop until the reply arrives.
    func call(
        _ method: String, _ parameters: OpaquePointer?, interface: String = AgentBus.interface,
        path: String = AgentBus.objectPath, timeout: Double = 10
    ) -> Reply {
        let pending = PendingCall()
        let callback: GAsyncReadyCallback = { source, result, data in
            let pending = Unmanaged<PendingCall>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let value = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            if error != nil {
                let failure = DBusCallError(taking: error)
                pending.reply.errorName = failure.name ?? "(local)"
                pending.reply.errorMessage = failure.message
            }
            pending.reply.value = value
            pending.done = true
        }
        let data = Unmanaged.passRetained(pending).toOpaque()
        g_dbus_connection_call(
            connection.pointer, destination, path, interface, method, parameters, nil,
            G_DBUS_CALL_FLAGS_NO_AUTO_START, Int32(timeout * 1000), nil, callback, data)
        XCTAssertTrue(LoopWait.until(timeout: timeout + 2) { pending.done }, "no reply to \(method)")
        if let value = pending.reply.value { owned.append(value) }
        return pending.reply
    }

    /// The agent's `Calls` property, printed (`Args.printed`).
    func agentCalls() -> String {
        Args.printed(
            call(
                "Get", Args.tuple([Args.s(AgentBus.interface), Args.s("Calls")]),
                interface: "org.freedesktop.DBus.Properties"
            ).value)
    }

    /// Subscribes to every signal on `path` (the agent's by default).
    func subscribe(interface: String? = nil, member: String? = nil, path: String = AgentBus.objectPath) {
        let callback: GDBusSignalCallback = { _, _, _, interface, member, parameters, data in
            let log = Unmanaged<SignalLog>.fromOpaque(data!).takeUnretainedValue()
            let printed = parameters.flatMap { g_variant_print($0, 1) }
            log.signals.append(
                Signal(
                    interface: interface.map { String(cString: $0) } ?? "",
                    member: member.map { String(cString: $0) } ?? "",
                    body: printed.map { String(cString: $0) } ?? ""))
            g_free(printed)
        }
        let destroy: GDestroyNotify = { data in Unmanaged<SignalLog>.fromOpaque(data!).release() }
        let id = g_dbus_connection_signal_subscribe(
            connection.pointer, nil, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            callback, Unmanaged.passRetained(signalLog).toOpaque(), destroy)
        subscriptions.append(id)
        // Make sure the bus has the match rule before anything is emitted.
        _ = call("GetId", nil, interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    }

    var signals: [Signal] { signalLog.signals }

    /// Turns the loop until `count` signals arrived (or `timeout`).
    @discardableResult
    func waitForSignals(_ count: Int, timeout: Double = 5) -> [Signal] {
        LoopWait.until(timeout: timeout) { self.signalLog.signals.count >= count }
        return signalLog.signals
    }
}

/// GVariant shorthands for test arguments.
enum Args {
    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        children.map(Optional.some).withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
    static func s(_ value: String) -> OpaquePointer { g_variant_new_string(value) }
    static func b(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
    static func i(_ value: Int32) -> OpaquePointer { g_variant_new_int32(value) }
    static func x(_ value: Int64) -> OpaquePointer { g_variant_new_int64(gint64(value)) }

    static func start(
        _ session: String, _ proxy: String = "+234 800 000 0001", _ label: String = "Rider", _ verified: Bool = true
    )
        -> OpaquePointer
    {
        tuple([s(session), s(proxy), s(label), b(verified)])
    }
    static func update(_ session: String, _ elapsed: Int32, _ verified: Bool = true, _ label: String = "Rider")
        -> OpaquePointer
    {
        tuple([s(session), i(elapsed), b(verified), s(label)])
    }
    static func end(_ session: String, _ policy: String = "immediate", _ after: Int64 = 0) -> OpaquePointer {
        tuple([s(session), s(policy), x(after)])
    }

    static func printed(_ value: OpaquePointer?) -> String {
        guard let value, let text = g_variant_print(value, 0) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
