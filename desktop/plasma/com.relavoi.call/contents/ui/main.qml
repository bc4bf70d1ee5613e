// The Relavoi call widget (Plasma 6): follows com.relavoi.Agent1's Calls and Health
// properties (docs/dbus.md) and shows what the GNOME pill shows. Its logic is
// ../code/widget.js over the pill's model.js; this file only wires D-Bus, the clock and
// the two views. Properties (and its PropertiesChanged) is in
// org.kde.plasma.workspace.dbus from Plasma 6.4: on 6.3 this widget does not load.
import QtQuick
import org.kde.plasma.plasmoid
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.workspace.dbus as DBus
import "../code/widget.js" as Widget

PlasmoidItem {
    id: root

    readonly property string domain: "plasma_applet_com.relavoi.call"
    property var calls: []
    property var health: Widget.parseHealth(null)
    // Set when the calls change and on each tick of a live call's timer, never otherwise.
    property double now: Date.now()
    readonly property var compactView: Widget.compactView(calls, health, now)
    // Only while opened (the opened view's items exist only then: FullView.qml).
    readonly property var fullView: expanded ? Widget.fullView(calls, health, now) : null
    // The view was opened with the mouse (FullView.qml: its focus ring waits for a key).
    property bool openedByMouse: false
    onExpandedChanged: {
        if (!root.expanded)
            root.openedByMouse = false;
    }

    // A tick makes a new compactView; these plain values change only when the state
    // does, so a tick sets nothing in Plasma (status, icon, tooltip, accessible name).
    readonly property bool compactActive: compactView.active
    readonly property string compactIcon: compactView.icon
    readonly property string compactName: compactView.accessibleName
    readonly property string compactCount: compactView.count

    Plasmoid.status: compactActive ? PlasmaCore.Types.ActiveStatus : PlasmaCore.Types.PassiveStatus
    Plasmoid.icon: compactActive ? compactIcon : "com.relavoi.Agent"
    toolTipMainText: compactName
    toolTipSubText: ""
    preferredRepresentation: compactRepresentation
    compactRepresentation: CompactView {}
    fullRepresentation: FullView {}

    Component.onCompleted: {
        Widget.setTranslations({
            gettext: message => i18nd(root.domain, message),
            ngettext: (singular, plural, n) => i18ndp(root.domain, singular, plural, n),
        });
        root.refresh();
    }
    // Gone from the panel: the agent shows its tray item again (it also notices plasmashell leaving).
    Component.onDestruction: {
        if (agentName.registered)
            root.call("ShowingCalls", false, "(b)");
    }

    // Whether the agent is on the bus: its properties are read when it comes, dropped when it goes.
    DBus.DBusServiceWatcher {
        id: agentName
        busType: DBus.BusType.Session
        watchedService: Widget.AGENT_BUS_NAME
        onRegisteredChanged: root.refresh()
    }

    // PropertiesChanged of the agent's object; the values are read anew with GetAll
    // (plasma-workspace 6.4 to 6.7 put a PropertiesChanged's values into its map without
    // decoding them, as read in its source; GetAll's reply is decoded).
    DBus.Properties {
        id: agentProperties
        busType: DBus.BusType.Session
        service: agentName.registered ? Widget.AGENT_BUS_NAME : ""
        path: Widget.AGENT_OBJECT_PATH
        iface: Widget.AGENT_INTERFACE
        onPropertiesChanged: (interfaceName, changed, invalidated) => {
            if (interfaceName === Widget.AGENT_INTERFACE)
                root.refresh();
        }
    }

    // The timer of a live call, on the call's own second from its answer time. Repeating,
    // its interval unchanged while on time: a QML Timer runs on Qt Quick's animation
    // timer, which draws a frame of every window of plasmashell (the full-screen desktop
    // too) each time a one-shot Timer ends or one is stopped; a repeating one only waits
    // (docs/plasma.md, "What a tick costs").
    Timer {
        id: tick
        repeat: true
        onTriggered: root.schedule()
    }

    function refresh() {
        if (!agentName.registered) {
            root.show(null, null);
            return;
        }
        // This widget shows the calls: the agent hides its tray item and lets the live
        // call's popup go meanwhile. Said on each read, not only when the name comes: a
        // widget added while an agent ran missed that agent leaving (seen on 6.7.4), so
        // the next agent never made `registered` change. The agent counts it once.
        root.call("ShowingCalls", true, "(b)");
        const reply = DBus.SessionBus.asyncCall({
            service: Widget.AGENT_BUS_NAME,
            path: Widget.AGENT_OBJECT_PATH,
            iface: "org.freedesktop.DBus.Properties",
            member: "GetAll",
            arguments: [Widget.AGENT_INTERFACE],
            signature: "(s)",
        });
        reply.finished.connect(() => {
            if (reply.isError)
                root.show(null, null);
            else
                root.show(reply.value["Calls"], reply.value["Health"]);
        });
    }

    function show(callsValue, healthValue) {
        root.calls = Widget.parseCalls(callsValue);
        root.health = Widget.parseHealth(healthValue);
        root.schedule();
    }

    function schedule() {
        root.now = Date.now();
        if (Widget.ticks(root.calls)) {
            // The same interval leaves a running Timer as it is; another restarts it.
            tick.interval = Widget.tickInterval(root.calls, root.now);
            tick.start();
        } else {
            tick.stop();
        }
    }

    // The badge icons ship in the package (contents/icons/), as the GNOME extension's do.
    function iconUrl(name) {
        return name === "" ? "" : Qt.resolvedUrl("../icons/" + name + ".svg");
    }

    // A method of the agent with one argument (Dismiss and Open take a session id).
    function call(member, argument, signature) {
        DBus.SessionBus.asyncCall({
            service: Widget.AGENT_BUS_NAME,
            path: Widget.AGENT_OBJECT_PATH,
            iface: Widget.AGENT_INTERFACE,
            member: member,
            arguments: [argument],
            signature: signature,
        });
    }

    // The Relavoi window (relavoi-window, DBusActivatable) on its Settings page.
    function openSettings() {
        DBus.SessionBus.asyncCall({
            service: "com.relavoi.Agent.Settings",
            path: "/com/relavoi/Agent/Settings",
            iface: "org.freedesktop.Application",
            member: "ActivateAction",
            // Each element of `av` is made a variant by the module: the plain string.
            arguments: ["show-page", ["settings"], {}],
            signature: "(sava{sv})",
        });
        root.expanded = false;
    }
}
