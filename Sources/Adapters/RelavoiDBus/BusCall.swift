import CGLib
import RelavoiGLib

/// Method calls to another process: arguments and replies as `DBusValue`s.
extension BusConnection {
    /// A synchronous call; the reply is a tuple of type `replyType` (GDBus
    /// checks it). Never call a service served by this thread's own loop:
    /// the call would wait for the timeout.
    public func call(
        destination: String, path: String, interface: String, method: String, arguments: [DBusValue] = [],
        replyType: String = "()", autoStart: Bool = true, timeoutMilliseconds: Int32 = -1
    ) throws(DBusCallError) -> DBusValue {
        let parameters = try Self.parameters(arguments)
        var error: UnsafeMutablePointer<GError>?
        let reply = GVariantValues.withType(replyType) { type in
            g_dbus_connection_call_sync(
                pointer, destination, path, interface, method, parameters, type, Self.flags(autoStart),
                timeoutMilliseconds, nil, &error)
        }
        guard let reply else { throw DBusCallError(taking: error) }
        defer { g_variant_unref(reply) }
        do {
            return try DBusValue(gvariant: reply)
        } catch {
            throw DBusCallError(name: nil, message: "the reply to \(method): \(error)")
        }
    }

    /// An asynchronous call; `completion` runs once, on the main loop.
    @MainActor
    public func callAsync(
        destination: String, path: String, interface: String, method: String, arguments: [DBusValue] = [],
        autoStart: Bool = true, timeoutMilliseconds: Int32 = -1,
        completion: @escaping @MainActor (Result<DBusValue, DBusCallError>) -> Void
    ) {
        let parameters: OpaquePointer?
        do {
            parameters = try Self.parameters(arguments)
        } catch {
            completion(.failure(error))
            return
        }
        final class Pending {
            let completion: @MainActor (Result<DBusValue, DBusCallError>) -> Void
            init(_ completion: @escaping @MainActor (Result<DBusValue, DBusCallError>) -> Void) {
                self.completion = completion
            }
        }
        let callback: GAsyncReadyCallback = { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let outcome: Result<DBusValue, DBusCallError>
            if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                defer { g_variant_unref(reply) }
                do {
                    outcome = .success(try DBusValue(gvariant: reply))
                } catch {
                    outcome = .failure(DBusCallError(name: nil, message: "the reply: \(error)"))
                }
            } else {
                outcome = .failure(DBusCallError(taking: error))
            }
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                Unmanaged<Pending>.fromOpaque(data!).takeRetainedValue().completion(outcome)
            }
        }
        g_dbus_connection_call(
            pointer, destination, path, interface, method, parameters, nil, Self.flags(autoStart),
            timeoutMilliseconds, nil, callback, Unmanaged.passRetained(Pending(completion)).toOpaque())
    }

    /// Whether `name` has an owner on the bus (false when the bus does not answer).
    public func nameHasOwner(_ name: String) -> Bool {
        let reply = try? call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            method: "NameHasOwner", arguments: [.string(name)], replyType: "(b)", timeoutMilliseconds: 5000)
        return reply?.children?.first?.boolValue ?? false
    }

    /// The arguments as a message body; a bad value is the call's error.
    private static func parameters(_ arguments: [DBusValue]) throws(DBusCallError) -> OpaquePointer? {
        do {
            return try arguments.messageBody()
        } catch {
            throw DBusCallError(name: nil, message: "the arguments: \(error)")
        }
    }

    private static func flags(_ autoStart: Bool) -> GDBusCallFlags {
        autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
    }
}
