import CGLib
import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// python3-dbusmock's notification daemon on the soak's private session bus:
/// started, stopped (a "server restart") and asked what it was sent.
@MainActor
final class NotificationMock {
    private let bus: OpaquePointer
    private var process: Process?
    /// 1, 2, … for each server started; the ledger of each is kept when it stops.
    private(set) var generation = 0

    init() throws {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "?"
            g_error_free(error)
            throw SoakError("no session bus (run through scripts/soak.sh): \(message)")
        }
        self.bus = bus
    }

    var isRunning: Bool { process?.isRunning == true }

    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--template", "notification_daemon"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        generation += 1
        guard LoopWait.until(timeout: 15, { hasOwner() }) else {
            throw SoakError("python3-dbusmock's notification daemon did not start (is python3-dbusmock installed?)")
        }
    }

    /// Stops the server; returns what it was sent over its life.
    @discardableResult
    func stop() -> NotificationLedger {
        let ledger = NotificationLedger(calls: calls())
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
            _ = LoopWait.until(timeout: 5) { !hasOwner() }
        }
        process = nil
        return ledger
    }

    func ledger() -> NotificationLedger { NotificationLedger(calls: calls()) }

    func hasOwner() -> Bool {
        guard
            let reply = call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                GVariantValues.tuple([g_variant_new_string("org.freedesktop.Notifications")]))
        else { return false }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// Every call the running server got, in order (`org.freedesktop.DBus.Mock.GetCalls`).
    private func calls() -> [MockCall] {
        guard isRunning,
            let reply = call(
                "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock",
                "GetCalls", nil)
        else { return [] }
        defer { g_variant_unref(reply) }
        let list = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(list) }
        var out: [MockCall] = []
        for index in 0..<g_variant_n_children(list) {
            let entry = g_variant_get_child_value(list, index)!
            let name = g_variant_get_child_value(entry, 1)!
            let args = g_variant_get_child_value(entry, 2)!
            var values: [MockValue] = []
            for arg in 0..<g_variant_n_children(args) {
                let boxed = g_variant_get_child_value(args, arg)!
                let value = g_variant_get_variant(boxed)!
                values.append(MockValue(value))
                g_variant_unref(value)
                g_variant_unref(boxed)
            }
            out.append(MockCall(method: String(cString: g_variant_get_string(name, nil)), args: values))
            g_variant_unref(args)
            g_variant_unref(name)
            g_variant_unref(entry)
        }
        return out
    }

    private func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ body: OpaquePointer?
    )
        -> OpaquePointer?
    {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, destination, path, interface, method, body, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error)
        if let error { g_error_free(error) }
        return reply
    }
}

struct MockCall {
    var method: String
    var args: [MockValue]
}

/// The argument values the ledger needs, copied out of their GVariants.
enum MockValue {
    case number(Int64)
    case string(String)
    case hints([String: String])
    case other

    init(_ value: OpaquePointer) {
        func isType(_ signature: String) -> Bool { GVariantValues.hasType(value, signature) }
        if isType("u") {
            self = .number(Int64(g_variant_get_uint32(value)))
        } else if isType("i") {
            self = .number(Int64(g_variant_get_int32(value)))
        } else if isType("s") {
            self = .string(String(cString: g_variant_get_string(value, nil)))
        } else if isType("a{sv}") {
            var hints: [String: String] = [:]
            for index in 0..<g_variant_n_children(value) {
                let entry = g_variant_get_child_value(value, index)!
                let key = g_variant_get_child_value(entry, 0)!
                let boxed = g_variant_get_child_value(entry, 1)!
                let inner = g_variant_get_variant(boxed)!
                if GVariantValues.hasType(inner, "s") {
                    hints[String(cString: g_variant_get_string(key, nil))] = String(
                        cString: g_variant_get_string(inner, nil))
                }
                g_variant_unref(inner)
                g_variant_unref(boxed)
                g_variant_unref(key)
                g_variant_unref(entry)
            }
            self = .hints(hints)
        } else {
            self = .other
        }
    }

    var number: Int64? { if case .number(let value) = self { return value } else { return nil } }
    var string: String? { if case .string(let value) = self { return value } else { return nil } }
    var hints: [String: String] { if case .hints(let value) = self { return value } else { return [:] } }
}

/// What one notification server instance was sent, by notification id. The
/// mock answers `Notify` with `replaces_id` when it is not 0 and otherwise
/// with its next id (1, 2, …), so the ids can be worked out from the calls.
struct NotificationLedger {
    struct Notification {
        var id: UInt32
        var summary: String
        var category: String
        /// `expire_timeout` 0: stays until closed (the live banners).
        var resident: Bool
        var updates: Int
        var closed: Bool
    }

    private(set) var notifications: [UInt32: Notification] = [:]
    private(set) var notifyCount = 0
    private(set) var closeCount = 0

    init(calls: [MockCall]) {
        var nextId: UInt32 = 1
        for call in calls {
            switch call.method {
            case "Notify" where call.args.count >= 8:
                notifyCount += 1
                let replaces = UInt32(truncatingIfNeeded: call.args[1].number ?? 0)
                let id: UInt32
                if replaces != 0 {
                    id = replaces
                } else {
                    id = nextId
                    nextId += 1
                }
                let updates = (notifications[id]?.updates ?? 0) + 1
                notifications[id] = Notification(
                    id: id, summary: call.args[3].string ?? "", category: call.args[6].hints["category"] ?? "",
                    resident: call.args[7].number == 0, updates: updates, closed: false)
            case "CloseNotification" where !call.args.isEmpty:
                closeCount += 1
                let id = UInt32(truncatingIfNeeded: call.args[0].number ?? 0)
                notifications[id]?.closed = true
            default:
                break
            }
        }
    }

    /// Notifications that stay on screen until closed and were not closed.
    var openResident: [Notification] {
        notifications.values.filter { $0.resident && !$0.closed }.sorted { $0.id < $1.id }
    }
}
