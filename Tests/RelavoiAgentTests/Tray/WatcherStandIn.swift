import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport

/// A StatusNotifierWatcher for tests: owns `org.kde.StatusNotifierWatcher` on
/// a connection of its own and records each `RegisterStatusNotifierItem`
/// (what a panel's watcher, kded or GNOME's AppIndicator, would hear).
/// `stop()` closes the connection: the name loses its owner, as when a panel exits.
@MainActor
final class WatcherStandIn {
    struct Registration: Equatable {
        var service: String
        var sender: String
    }

    private final class State {
        var registrations: [Registration] = []
        var owned = false
    }

    private let connection: BusConnection
    private let state = State()
    private var objectID: guint = 0
    private var ownerID: guint = 0

    init() throws {
        connection = try BusConnection.privateSession()
        var error: UnsafeMutablePointer<GError>?
        let node = g_dbus_node_info_new_for_xml(Self.xml, &error)!
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, sender, _, _, method, parameters, invocation, data in
            let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
            let name = method.map { String(cString: $0) } ?? ""
            if name == "RegisterStatusNotifierItem", let parameters {
                let child = g_variant_get_child_value(parameters, 0)!
                let service = String(cString: g_variant_get_string(child, nil))
                g_variant_unref(child)
                state.registrations.append(
                    Registration(service: service, sender: sender.map { String(cString: $0) } ?? ""))
            }
            g_dbus_method_invocation_return_value(invocation, nil)
        }
        vtable.get_property = { _, _, _, _, property, _, data in
            let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
            switch property.map({ String(cString: $0) }) {
            case "IsStatusNotifierHostRegistered": return g_variant_new_boolean(1)
            case "ProtocolVersion": return g_variant_new_int32(0)
            default:
                let type = g_variant_type_new("s")!
                defer { g_variant_type_free(type) }
                let items = state.registrations.map { Optional(g_variant_new_string($0.service)!) }
                return items.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
            }
        }
        let data = Unmanaged.passRetained(state).toOpaque()
        let destroy: GDestroyNotify = { data in Unmanaged<State>.fromOpaque(data!).release() }
        objectID = g_dbus_connection_register_object(
            connection.pointer, "/StatusNotifierWatcher", node.pointee.interfaces[0], &vtable, data, destroy, &error)
        let acquired: GBusNameAcquiredCallback = { _, _, data in
            Unmanaged<State>.fromOpaque(data!).takeUnretainedValue().owned = true
        }
        ownerID = g_bus_own_name_on_connection(
            connection.pointer, "org.kde.StatusNotifierWatcher", G_BUS_NAME_OWNER_FLAGS_NONE, acquired, nil,
            Unmanaged.passRetained(state).toOpaque(), { data in Unmanaged<State>.fromOpaque(data!).release() })
    }

    var registrations: [Registration] { state.registrations }
    var ownsName: Bool { state.owned }

    func stop() {
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        if objectID != 0 { g_dbus_connection_unregister_object(connection.pointer, objectID) }
        objectID = 0
        connection.close()
    }

    static let xml = """
        <node>
          <interface name="org.kde.StatusNotifierWatcher">
            <method name="RegisterStatusNotifierItem"><arg name="service" type="s" direction="in"/></method>
            <method name="RegisterStatusNotifierHost"><arg name="service" type="s" direction="in"/></method>
            <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
            <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
            <property name="ProtocolVersion" type="i" access="read"/>
          </interface>
        </node>
        """
}
