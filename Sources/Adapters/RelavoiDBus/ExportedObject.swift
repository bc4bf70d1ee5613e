import CGLib
import RelavoiGLib

/// One object exported on a bus connection: the interface from its
/// introspection XML (GDBus refuses calls whose arguments do not match it,
/// with `org.freedesktop.DBus.Error.InvalidArgs`), method calls handed to
/// `onCall`, properties read from `property`, signals sent with `emit`.
/// Its owner keeps it alive; it unregisters when it goes.
@MainActor
public final class ExportedObject {
    public struct RegistrationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Carries the object through GDBus's `user_data`; retained by the
    /// registration and released by its destroy notify, so it may outlive the object.
    private final class Handle {
        weak var object: ExportedObject?
        let goneError: (name: String, message: String)
        init(_ object: ExportedObject) {
            self.object = object
            goneError = object.goneError
        }
    }

    public let connection: BusConnection
    public let path: String
    private let introspectionXML: String
    private let onCall: @MainActor (DBusMethodCall) -> Void
    private let property: @MainActor (String) -> DBusValue?
    /// The reply to a call that arrives after the object went (GDBus may still deliver one).
    private let goneError: (name: String, message: String)
    /// What `emit`'s warnings start with ("D-Bus", "tray item").
    private let logPrefix: String
    private var registrationID: guint = 0

    /// - Parameters:
    ///   - introspectionXML: a `<node>` with one interface.
    ///   - onCall: gets every call GDBus let through; must answer it exactly once.
    ///   - property: a property's value, or nil for "no such property".
    ///   - goneError: the reply to a call GDBus delivers after the object went.
    public init(
        connection: BusConnection, path: String, introspectionXML: String, logPrefix: String = "D-Bus",
        goneError: (name: String, message: String) = ("org.freedesktop.DBus.Error.Failed", "the object is going away"),
        onCall: @escaping @MainActor (DBusMethodCall) -> Void, property: @escaping @MainActor (String) -> DBusValue?
    ) {
        self.connection = connection
        self.path = path
        self.introspectionXML = introspectionXML
        self.logPrefix = logPrefix
        self.goneError = goneError
        self.onCall = onCall
        self.property = property
    }

    isolated deinit { unregister() }

    public var isRegistered: Bool { registrationID != 0 }

    /// Exports the object. Fails when the XML does not parse (a bug) or the
    /// path is taken on this connection.
    public func register() throws(RegistrationError) {
        guard registrationID == 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(introspectionXML, &error) else {
            throw RegistrationError(description: "introspection data: \(GErrorText.take(error))")
        }
        defer { g_dbus_node_info_unref(node) }
        guard let interfaces = node.pointee.interfaces, let interface = interfaces[0] else {
            throw RegistrationError(description: "introspection data has no interface")
        }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
            nonisolated(unsafe) let parameters = parameters
            nonisolated(unsafe) let invocation = invocation
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                guard let invocation else { return }
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                guard let object = handle.object, let method, let parameters else {
                    g_dbus_method_invocation_return_dbus_error(
                        invocation, handle.goneError.name, handle.goneError.message)
                    return
                }
                object.dispatch(String(cString: method), parameters, invocation)
            }
        }
        vtable.get_property = { _, _, _, _, property, error, data in
            nonisolated(unsafe) let error = error
            nonisolated(unsafe) let data = data
            nonisolated(unsafe) var value: OpaquePointer?
            MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                let name = property.map { String(cString: $0) } ?? ""
                value = handle.object?.read(name, error: error)
            }
            return value
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        let handle = Unmanaged.passRetained(Handle(self)).toOpaque()
        let id = g_dbus_connection_register_object(
            connection.pointer, path, interface, &vtable, handle, destroy, &error)
        guard id != 0 else {
            // GDBus does not call the destroy notify when registration fails.
            Unmanaged<Handle>.fromOpaque(handle).release()
            throw RegistrationError(description: "cannot export \(path): \(GErrorText.take(error))")
        }
        registrationID = id
    }

    /// Removes the object from the connection (idempotent).
    public func unregister() {
        guard registrationID != 0 else { return }
        g_dbus_connection_unregister_object(connection.pointer, registrationID)
        registrationID = 0
    }

    /// Emits `signal` of `interface` from this object to every listener (no
    /// arguments: an empty body). Does nothing while unregistered; a failure is logged.
    public func emit(interface: String, signal: String, _ arguments: [DBusValue] = []) {
        guard registrationID != 0 else { return }
        let body: OpaquePointer?
        do {
            body = try arguments.messageBody()
        } catch {
            Log.warning("\(logPrefix): cannot emit \(signal): \(error)")
            return
        }
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(connection.pointer, nil, path, interface, signal, body, &error) == 0 {
            Log.warning("\(logPrefix): cannot emit \(signal): \(GErrorText.take(error))")
        }
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for these
    /// properties of `interface`, with their new values.
    public func emitPropertiesChanged(interface: String, _ changed: [(String, DBusValue)]) {
        emit(
            interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged",
            [.string(interface), .dictionary(changed), .array(elementSignature: "s", [])])
    }

    private func dispatch(_ method: String, _ parameters: OpaquePointer, _ invocation: OpaquePointer) {
        let arguments: [DBusValue]
        do {
            arguments = try DBusValue(gvariant: parameters).children ?? []
        } catch {
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.InvalidArgs", "\(method): \(error)")
            return
        }
        let signature = GVariantValues.signature(parameters)
        onCall(DBusMethodCall(method: method, signature: signature, arguments: arguments, invocation: invocation))
    }

    private func read(_ name: String, error failure: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?)
        -> OpaquePointer?
    {
        guard let value = property(name) else {
            g_set_error_literal(
                failure, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no property \(name)")
            return nil
        }
        do {
            return try value.gvariant()
        } catch {
            g_set_error_literal(failure, g_dbus_error_quark(), gint(G_DBUS_ERROR_FAILED.rawValue), "\(name): \(error)")
            return nil
        }
    }
}
