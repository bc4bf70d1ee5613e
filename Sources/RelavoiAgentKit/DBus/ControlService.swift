import CGLib
import FoundationEssentials
import Glibc
import RelavoiGLib

/// The object `/com/relavoi/Agent` implementing `com.relavoi.Agent1` (see
/// `AgentBus`) on a bus connection, forwarding validated calls to a
/// `BannerControl`. Register it before owning the bus name, so that callers
/// woken by D-Bus activation find it.
@MainActor
public final class ControlService {
    public struct RegistrationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Carries the service through GDBus's `user_data`; retained by the
    /// registration and released by its destroy notify.
    private final class Handle {
        weak var service: ControlService?
        init(_ service: ControlService) { self.service = service }
    }

    let connection: BusConnection
    /// Held weakly: the agent owns its banner control (which usually owns this service).
    weak var control: (any BannerControl)?
    /// The clock `End`'s "after" range is checked against.
    let now: () -> Date
    private var registrationID: guint = 0
    private var announcedConnected: Bool?
    /// The calls last announced, without their ticking counts.
    private var announcedCalls: [BannerListing] = []

    public init(connection: BusConnection, control: any BannerControl, now: @escaping () -> Date = Date.init) {
        self.connection = connection
        self.control = control
        self.now = now
    }

    isolated deinit { unregister() }

    public var isRegistered: Bool { registrationID != 0 }

    /// Exports the object on the connection. Fails when the XML does not
    /// parse (a bug) or the path is taken on this connection.
    public func register() throws(RegistrationError) {
        guard registrationID == 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(AgentBus.introspectionXML, &error) else {
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
                guard let service = handle.service, let method, let parameters else {
                    g_dbus_method_invocation_return_dbus_error(
                        invocation, AgentBus.errorFailed, "the agent is shutting down")
                    return
                }
                service.dispatch(method: String(cString: method), parameters: parameters, invocation: invocation)
            }
        }
        vtable.get_property = { _, _, _, _, property, error, data in
            nonisolated(unsafe) let error = error
            nonisolated(unsafe) let data = data
            nonisolated(unsafe) var value: OpaquePointer?
            MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                let name = property.map { String(cString: $0) } ?? ""
                if let service = handle.service, name == "Connected" {
                    value = g_variant_new_boolean(service.currentConnected ? 1 : 0)
                } else if let service = handle.service, name == "Calls" {
                    value = CallsProperty.value(service.control?.listBanners() ?? [])
                } else {
                    g_set_error_literal(
                        error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue),
                        "no property \(name)")
                }
            }
            return value
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        let handle = Unmanaged.passRetained(Handle(self)).toOpaque()
        let id = g_dbus_connection_register_object(
            connection.pointer, AgentBus.objectPath, interface, &vtable, handle, destroy, &error)
        guard id != 0 else {
            // GDBus does not call the destroy notify when registration fails.
            Unmanaged<Handle>.fromOpaque(handle).release()
            throw RegistrationError(description: "cannot export \(AgentBus.objectPath): \(GErrorText.take(error))")
        }
        registrationID = id
        announcedConnected = currentConnected
        announcedCalls = currentCalls
    }

    /// Removes the object from the connection (idempotent).
    public func unregister() {
        guard registrationID != 0 else { return }
        g_dbus_connection_unregister_object(connection.pointer, registrationID)
        registrationID = 0
    }

    /// Emits `BannerDismissed(session_id)`: the user closed a banner.
    public func emitBannerDismissed(sessionId: String) {
        guard registrationID != 0 else { return }
        emit(
            interface: AgentBus.interface, signal: "BannerDismissed",
            GVariantValues.tuple([g_variant_new_string(sessionId)]))
    }

    /// Call when the stream's connectivity may have changed: emits
    /// `PropertiesChanged` for `Connected` if its value differs from the last
    /// one announced.
    public func connectedChanged() {
        guard registrationID != 0 else { return }
        let connected = currentConnected
        guard connected != announcedConnected else { return }
        announcedConnected = connected
        emitPropertyChanged("Connected", g_variant_new_boolean(connected ? 1 : 0))
    }

    var currentConnected: Bool { control?.isStreamConnected ?? false }

    /// Call when a call may have changed (shown, answered, verified, ended,
    /// gone): emits `PropertiesChanged` for `Calls` if it differs from what was
    /// last announced. Ticks change nothing there: panels count from the times.
    public func callsChanged() {
        guard registrationID != 0 else { return }
        let calls = currentCalls
        guard calls != announcedCalls else { return }
        announcedCalls = calls
        emitPropertyChanged("Calls", CallsProperty.value(calls))
    }

    /// `PropertiesChanged` for one property of the interface, with its new value.
    private func emitPropertyChanged(_ name: String, _ value: OpaquePointer) {
        let changed = g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_variant(value))!
        let body = GVariantValues.tuple([
            g_variant_new_string(AgentBus.interface),
            GVariantValues.array(of: "{sv}", [changed]),
            GVariantValues.array(of: "s", []),
        ])
        emit(interface: "org.freedesktop.DBus.Properties", signal: "PropertiesChanged", body)
    }

    var currentCalls: [BannerListing] { (control?.listBanners() ?? []).map(\.withoutElapsed) }

    private func emit(interface: String, signal: String, _ body: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(
            connection.pointer, nil, AgentBus.objectPath, interface, signal, body, &error) == 0
        {
            Log.warning("D-Bus: cannot emit \(signal): \(GErrorText.take(error))")
        }
    }
}
