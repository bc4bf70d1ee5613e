import CGLib
import RelavoiCore
import RelavoiGLib

/// The object `/StatusNotifierItem` implementing `org.kde.StatusNotifierItem`
/// (with Ayatana's `XAyatanaLabel`) on a bus connection. Its properties are
/// read from the current `TrayItemView`; `emit` sends the `New*` signals the
/// pacer let through. Methods with unknown names or wrong arguments get D-Bus
/// errors. Without `open-url` the item is a menu (`ItemIsMenu`): hosts open
/// the menu on a click; with it `Activate` (a left click) runs `onActivate`.
@MainActor
public final class StatusNotifierItemObject {
    public static let path = "/StatusNotifierItem"
    public static let interface = "org.kde.StatusNotifierItem"

    public struct RegistrationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Carries the object through GDBus's `user_data`; released by the destroy notify.
    private final class Handle {
        weak var item: StatusNotifierItemObject?
        init(_ item: StatusNotifierItemObject) { self.item = item }
    }

    private let connection: OpaquePointer
    private let id: String
    private let menuPath: String
    private let iconThemePath: String
    private let itemIsMenu: Bool
    private let onActivate: @MainActor () -> Void
    private var registrationID: guint = 0
    /// What the properties say now (hosts read them after a signal).
    public var view = TrayItemView()

    /// - Parameters:
    ///   - connection: the `GDBusConnection *`, held by the caller for the object's life.
    ///   - id: the item's `Id` (the app id).
    ///   - menuPath: the dbusmenu object's path on the same connection.
    ///   - iconThemePath: a folder with `hicolor/…` when the icons are not installed, else "".
    ///   - itemIsMenu: a click opens the menu; else `Activate` calls `onActivate`.
    public init(
        connection: OpaquePointer, id: String, menuPath: String, iconThemePath: String, itemIsMenu: Bool = true,
        onActivate: @escaping @MainActor () -> Void = {}
    ) {
        self.connection = connection
        self.id = id
        self.menuPath = menuPath
        self.iconThemePath = iconThemePath
        self.itemIsMenu = itemIsMenu
        self.onActivate = onActivate
    }

    isolated deinit { unregister() }

    public var isRegistered: Bool { registrationID != 0 }

    public func register() throws(RegistrationError) {
        guard registrationID == 0 else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspectionXML, &error) else {
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
                guard let item = handle.item, let method, let parameters else {
                    g_dbus_method_invocation_return_dbus_error(
                        invocation, "org.freedesktop.DBus.Error.Failed", "the item is going away")
                    return
                }
                item.dispatch(String(cString: method), parameters, invocation)
            }
        }
        vtable.get_property = { _, _, _, _, property, error, data in
            nonisolated(unsafe) let error = error
            nonisolated(unsafe) let data = data
            nonisolated(unsafe) var value: OpaquePointer?
            MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                let name = property.map { String(cString: $0) } ?? ""
                value = handle.item?.property(name)
                if value == nil {
                    g_set_error_literal(
                        error, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue),
                        "no property \(name)")
                }
            }
            return value
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        let handle = Unmanaged.passRetained(Handle(self)).toOpaque()
        let id = g_dbus_connection_register_object(connection, Self.path, interface, &vtable, handle, destroy, &error)
        guard id != 0 else {
            Unmanaged<Handle>.fromOpaque(handle).release()
            throw RegistrationError(description: "cannot export \(Self.path): \(GErrorText.take(error))")
        }
        registrationID = id
    }

    public func unregister() {
        guard registrationID != 0 else { return }
        g_dbus_connection_unregister_object(connection, registrationID)
        registrationID = 0
    }

    /// Emits these signals for the current view.
    public func emit(_ signals: [TrayItemSignal]) {
        guard registrationID != 0 else { return }
        for signal in signals {
            var body: OpaquePointer?
            switch signal {
            case .newStatus: body = TrayVariants.tuple([g_variant_new_string(view.status.rawValue)])
            case .newLabel:
                body = TrayVariants.tuple([g_variant_new_string(view.label), g_variant_new_string(view.labelGuide)])
            case .newTitle, .newIcon, .newAttentionIcon, .newToolTip: body = nil
            }
            var error: UnsafeMutablePointer<GError>?
            if g_dbus_connection_emit_signal(
                connection, nil, Self.path, Self.interface, signal.rawValue, body, &error) == 0
            {
                Log.warning("tray item: cannot emit \(signal.rawValue): \(GErrorText.take(error))")
            }
        }
    }

    func property(_ name: String) -> OpaquePointer? {
        switch name {
        case "Category": return g_variant_new_string("Communications")
        case "Id": return g_variant_new_string(id)
        case "Title": return g_variant_new_string(view.title)
        case "Status": return g_variant_new_string(view.status.rawValue)
        case "WindowId": return g_variant_new_int32(0)
        case "IconName": return g_variant_new_string(view.iconName)
        case "AttentionIconName": return g_variant_new_string(view.attentionIconName)
        case "OverlayIconName", "AttentionMovieName": return g_variant_new_string("")
        case "IconPixmap", "AttentionIconPixmap", "OverlayIconPixmap": return TrayVariants.noPixmaps()
        case "IconThemePath": return g_variant_new_string(iconThemePath)
        case "ItemIsMenu": return g_variant_new_boolean(itemIsMenu ? 1 : 0)
        case "Menu": return g_variant_new_object_path(menuPath)
        case "ToolTip":
            return TrayVariants.tuple([
                g_variant_new_string(view.iconName), TrayVariants.noPixmaps(),
                g_variant_new_string(view.toolTipTitle), g_variant_new_string(view.toolTipText),
            ])
        case "XAyatanaLabel": return g_variant_new_string(view.label)
        case "XAyatanaLabelGuide": return g_variant_new_string(view.labelGuide)
        case "XAyatanaOrderingIndex": return g_variant_new_uint32(0)
        default: return nil
        }
    }

    /// Every path replies exactly once. GDBus checked the signature against
    /// the introspection data; it is checked again so a mismatch is an error, never a crash.
    private func dispatch(_ method: String, _ args: OpaquePointer, _ invocation: OpaquePointer) {
        func has(_ signature: String) -> Bool { TrayVariants.hasType(args, signature) }
        switch method {
        case "Activate" where has("(ii)"):
            g_dbus_method_invocation_return_value(invocation, nil)
            onActivate()
        case "SecondaryActivate" where has("(ii)"), "ContextMenu" where has("(ii)"):
            // The host opens the menu itself (com.canonical.dbusmenu); nothing else to open.
            Log.debug("tray item: \(method)")
            g_dbus_method_invocation_return_value(invocation, nil)
        case "Scroll" where has("(is)"):
            let orientation = TrayVariants.string(args, 1).lowercased()
            guard orientation == "vertical" || orientation == "horizontal" else {
                g_dbus_method_invocation_return_dbus_error(
                    invocation, "org.freedesktop.DBus.Error.InvalidArgs",
                    "orientation must be vertical or horizontal")
                return
            }
            g_dbus_method_invocation_return_value(invocation, nil)
        case "ProvideXdgActivationToken" where has("(s)"):
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(
                invocation, "org.freedesktop.DBus.Error.InvalidArgs", "no method \(method) with this signature")
        }
    }

    static let introspectionXML = """
        <node>
          <interface name="org.kde.StatusNotifierItem">
            <property name="Category" type="s" access="read"/>
            <property name="Id" type="s" access="read"/>
            <property name="Title" type="s" access="read"/>
            <property name="Status" type="s" access="read"/>
            <property name="WindowId" type="i" access="read"/>
            <property name="IconThemePath" type="s" access="read"/>
            <property name="Menu" type="o" access="read"/>
            <property name="ItemIsMenu" type="b" access="read"/>
            <property name="IconName" type="s" access="read"/>
            <property name="IconPixmap" type="a(iiay)" access="read"/>
            <property name="OverlayIconName" type="s" access="read"/>
            <property name="OverlayIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionIconName" type="s" access="read"/>
            <property name="AttentionIconPixmap" type="a(iiay)" access="read"/>
            <property name="AttentionMovieName" type="s" access="read"/>
            <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
            <property name="XAyatanaLabel" type="s" access="read"/>
            <property name="XAyatanaLabelGuide" type="s" access="read"/>
            <property name="XAyatanaOrderingIndex" type="u" access="read"/>
            <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
            <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
            <method name="ProvideXdgActivationToken"><arg name="token" type="s" direction="in"/></method>
            <signal name="NewTitle"/>
            <signal name="NewIcon"/>
            <signal name="NewAttentionIcon"/>
            <signal name="NewOverlayIcon"/>
            <signal name="NewToolTip"/>
            <signal name="NewStatus"><arg name="status" type="s"/></signal>
            <signal name="XAyatanaNewLabel"><arg name="label" type="s"/><arg name="guide" type="s"/></signal>
          </interface>
        </node>
        """
}
