import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines

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

    private let id: String
    private let menuPath: String
    private let iconThemePath: String
    private let itemIsMenu: Bool
    private let onActivate: @MainActor () -> Void
    private var object: ExportedObject?
    /// What the properties say now (hosts read them after a signal).
    public var view: TrayItemView {
        get {
            if let maker = viewMaker {
                storedView = maker()
                viewMaker = nil
            }
            return storedView
        }
        set {
            storedView = newValue
            viewMaker = nil
        }
    }
    private var storedView = TrayItemView()
    private var viewMaker: (() -> TrayItemView)?

    /// The view made only when a reader asks for a property: with no panel
    /// watching, nothing is worked out on each tick.
    public func setView(lazily maker: @escaping () -> TrayItemView) { viewMaker = maker }

    /// - Parameters:
    ///   - connection: the session connection the item is exported on.
    ///   - id: the item's `Id` (the app id).
    ///   - menuPath: the dbusmenu object's path on the same connection.
    ///   - iconThemePath: a folder with `hicolor/…` when the icons are not installed, else "".
    ///   - itemIsMenu: a click opens the menu; else `Activate` calls `onActivate`.
    public init(
        connection: BusConnection, id: String, menuPath: String, iconThemePath: String, itemIsMenu: Bool = true,
        onActivate: @escaping @MainActor () -> Void = {}
    ) {
        self.id = id
        self.menuPath = menuPath
        self.iconThemePath = iconThemePath
        self.itemIsMenu = itemIsMenu
        self.onActivate = onActivate
        object = ExportedObject(
            connection: connection, path: Self.path, introspectionXML: Self.introspectionXML, logPrefix: "tray item",
            goneError: ("org.freedesktop.DBus.Error.Failed", "the item is going away"),
            onCall: { [weak self] call in
                guard let self else { return call.fail("org.freedesktop.DBus.Error.Failed", "the item is going away") }
                self.dispatch(call)
            }, property: { [weak self] in self?.property($0) })
    }

    public var isRegistered: Bool { object?.isRegistered ?? false }

    public func register() throws(ExportedObject.RegistrationError) { try object?.register() }

    public func unregister() { object?.unregister() }

    /// Emits these signals for the current view.
    public func emit(_ signals: [TrayItemSignal]) {
        for signal in signals {
            let arguments: [DBusValue]
            switch signal {
            case .newStatus: arguments = [.string(view.status.rawValue)]
            case .newLabel: arguments = [.string(view.label), .string(view.labelGuide)]
            case .newTitle, .newIcon, .newAttentionIcon, .newToolTip: arguments = []
            }
            object?.emit(interface: Self.interface, signal: signal.rawValue, arguments)
        }
    }

    /// An empty `a(iiay)`: the icons are named, never sent as pixels. Computed:
    /// make test-asan reported a stored one as a leak (the enum box's pointer carries tag bits).
    private static var noPixmaps: DBusValue { .array(elementSignature: "(iiay)", []) }

    func property(_ name: String) -> DBusValue? {
        switch name {
        case "Category": return .string("Communications")
        case "Id": return .string(id)
        case "Title": return .string(view.title)
        case "Status": return .string(view.status.rawValue)
        case "WindowId": return .int32(0)
        case "IconName": return .string(view.iconName)
        case "AttentionIconName": return .string(view.attentionIconName)
        case "OverlayIconName", "AttentionMovieName": return .string("")
        case "IconPixmap", "AttentionIconPixmap", "OverlayIconPixmap": return Self.noPixmaps
        case "IconThemePath": return .string(iconThemePath)
        case "ItemIsMenu": return .bool(itemIsMenu)
        case "Menu": return .objectPath(menuPath)
        case "ToolTip":
            return .tuple([
                .string(view.iconName), Self.noPixmaps, .string(view.toolTipTitle), .string(view.toolTipText),
            ])
        case "XAyatanaLabel": return .string(view.label)
        case "XAyatanaLabelGuide": return .string(view.labelGuide)
        case "XAyatanaOrderingIndex": return .uint32(0)
        default: return nil
        }
    }

    /// Every path replies exactly once. GDBus checked the signature against
    /// the introspection data; it is checked again so a mismatch is an error, never a crash.
    private func dispatch(_ call: DBusMethodCall) {
        let method = call.method
        switch method {
        case "Activate" where call.signature == "(ii)":
            call.reply()
            onActivate()
        case "SecondaryActivate" where call.signature == "(ii)", "ContextMenu" where call.signature == "(ii)":
            // The host opens the menu itself (com.canonical.dbusmenu); nothing else to open.
            Log.debug("tray item: \(method)")
            call.reply()
        case "Scroll" where call.signature == "(is)":
            let orientation = (call.arguments[1].stringValue ?? "").lowercased()
            guard orientation == "vertical" || orientation == "horizontal" else {
                call.fail("org.freedesktop.DBus.Error.InvalidArgs", "orientation must be vertical or horizontal")
                return
            }
            call.reply()
        case "ProvideXdgActivationToken" where call.signature == "(s)":
            call.reply()
        default:
            call.fail("org.freedesktop.DBus.Error.InvalidArgs", "no method \(method) with this signature")
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
