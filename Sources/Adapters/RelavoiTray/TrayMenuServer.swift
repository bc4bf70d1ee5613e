import CDbusmenu
import CGLib
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// The item's menu over `com.canonical.dbusmenu`, served by libdbusmenu-glib
/// on the process's shared session connection. It shows `TrayMenuRow`s:
/// new rows (a call came or went) get a new layout, and changed words (a new
/// state or badge) are updated in place, at once; a running timer's next
/// second only while a host has the menu open (between its `Event(0,
/// "opened")` and `Event(0, "closed")`), and brought up to date when it opens
/// or a host calls `AboutToShow(0)`, so a closed menu costs no signal a second. libdbusmenu answers `Event` for an unknown id
/// with an error itself; each event it accepts is handed to `onEvent` with
/// the item's id and the event's name, and the agent decides (`TrayMenuEvent`).
@MainActor
public final class TrayMenuServer {
    public static let path = "/MenuBar"

    private final class Handle {
        weak var server: TrayMenuServer?
        init(_ server: TrayMenuServer) { self.server = server }
    }

    private let server: UnsafeMutablePointer<DbusmenuServer>
    private let root: UnsafeMutablePointer<DbusmenuMenuitem>
    private var items: [UnsafeMutablePointer<DbusmenuMenuitem>] = []
    /// What the menu shows now (the clicks are decided on these).
    public private(set) var rows: [TrayMenuRow] = []
    /// The labels the hosts were last sent, one per item.
    private var sentLabels: [String] = []
    /// A host has the menu open: texts go out as they change.
    private var isOpen = false
    private let onEvent: @MainActor (_ itemId: Int32, _ eventId: String) -> Void

    public init(onEvent: @escaping @MainActor (_ itemId: Int32, _ eventId: String) -> Void) {
        self.onEvent = onEvent
        server = dbusmenu_server_new(Self.path)
        root = dbusmenu_menuitem_new_with_id(0)
        dbusmenu_server_set_root(server, root)
        connectEvents(root)
        connectAboutToShow(root)
    }

    isolated deinit {
        clear()
        g_object_unref(UnsafeMutableRawPointer(root))
        g_object_unref(UnsafeMutableRawPointer(server))
    }

    /// Shows these rows: a new layout when rows came or went (or changed kind);
    /// changed texts only while the menu is open (nothing is sent when nothing changed).
    public func show(_ newRows: [TrayMenuRow]) {
        if newRows.map(\.shape) != rows.map(\.shape) {
            clear()
            for row in newRows {
                let item = dbusmenu_menuitem_new_with_id(row.id)!
                switch row.kind {
                case .separator:
                    dbusmenu_menuitem_property_set(item, DBUSMENU_MENUITEM_PROP_TYPE, "separator")
                case .text:
                    dbusmenu_menuitem_property_set(item, DBUSMENU_MENUITEM_PROP_LABEL, row.label)
                    dbusmenu_menuitem_property_set_bool(item, DBUSMENU_MENUITEM_PROP_ENABLED, 0)
                case .copyNumber, .dismiss, .openSettings:
                    dbusmenu_menuitem_property_set(item, DBUSMENU_MENUITEM_PROP_LABEL, row.label)
                }
                connectEvents(item)
                dbusmenu_menuitem_child_append(root, item)
                items.append(item)
            }
            rows = newRows
            sentLabels = newRows.map(\.label)
        } else {
            rows = newRows
            sendChangedLabels(timersToo: isOpen)
        }
    }

    /// The labels that differ from what the hosts were sent; a timer's next
    /// second only with `timersToo`.
    private func sendChangedLabels(timersToo: Bool) {
        for (index, row) in rows.enumerated() where row.kind != .separator && row.label != sentLabels[index] {
            if !timersToo && TrayMenuRow.onlyTimerMoved(from: sentLabels[index], to: row.label) { continue }
            dbusmenu_menuitem_property_set(items[index], DBUSMENU_MENUITEM_PROP_LABEL, row.label)
            sentLabels[index] = row.label
        }
    }

    /// The root's "opened" and "closed" (hosts send them as the menu opens and closes).
    private func rootEvent(_ eventId: String) {
        switch eventId {
        case "opened":
            isOpen = true
            sendChangedLabels(timersToo: true)
        case "closed":
            isOpen = false
        default:
            break
        }
    }

    private func clear() {
        for item in items {
            dbusmenu_menuitem_child_delete(root, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        items.removeAll()
    }

    /// "event" fires for every event libdbusmenu accepted for this item;
    /// returning TRUE keeps libdbusmenu's own handling (item-activated) out.
    private func connectEvents(_ item: UnsafeMutablePointer<DbusmenuMenuitem>) {
        typealias EventHandler =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<gchar>?, OpaquePointer?, guint, UnsafeMutableRawPointer?
            ) -> gboolean
        let handler: EventHandler = { item, name, _, _, data in
            nonisolated(unsafe) let item = item
            nonisolated(unsafe) let data = data
            let eventId = name.map { String(cString: $0) } ?? ""
            return MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                guard let server = handle.server, let item else { return 1 }
                let id = dbusmenu_menuitem_get_id(item.assumingMemoryBound(to: DbusmenuMenuitem.self))
                if id == 0 { server.rootEvent(eventId) }
                server.onEvent(id, eventId)
                return 1
            }
        }
        let destroy: GClosureNotify = { data, _ in Unmanaged<Handle>.fromOpaque(data!).release() }
        g_signal_connect_data(
            UnsafeMutableRawPointer(item), DBUSMENU_MENUITEM_SIGNAL_EVENT, unsafeBitCast(handler, to: GCallback.self),
            Unmanaged.passRetained(Handle(self)).toOpaque(), destroy, GConnectFlags(rawValue: 0))
    }

    /// `AboutToShow(0)`: libdbusmenu answers "no update needed" itself and then
    /// emits "about-to-show"; the labels go out then. (GNOME's AppIndicator also
    /// calls it once when it first reads the menu: not taken as the menu opening.)
    private func connectAboutToShow(_ item: UnsafeMutablePointer<DbusmenuMenuitem>) {
        typealias AboutToShowHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean
        let handler: AboutToShowHandler = { _, data in
            nonisolated(unsafe) let data = data
            return MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                handle.server?.sendChangedLabels(timersToo: true)
                return 0
            }
        }
        let destroy: GClosureNotify = { data, _ in Unmanaged<Handle>.fromOpaque(data!).release() }
        g_signal_connect_data(
            UnsafeMutableRawPointer(item), DBUSMENU_MENUITEM_SIGNAL_ABOUT_TO_SHOW,
            unsafeBitCast(handler, to: GCallback.self), Unmanaged.passRetained(Handle(self)).toOpaque(), destroy,
            GConnectFlags(rawValue: 0))
    }
}
