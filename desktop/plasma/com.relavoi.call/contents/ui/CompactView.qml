// On the panel: the badge icon, the ticking text and +N while a call rings or runs; the
// quiet state's icon alone while calls cannot show; nothing (no room) otherwise.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.plasmoid
import org.kde.plasma.components as PlasmaComponents3
import org.kde.kirigami as Kirigami
import "../code/widget.js" as Widget

MouseArea {
    id: compact

    readonly property var view: root.compactView

    visible: root.compactActive
    implicitWidth: root.compactActive ? row.implicitWidth + Kirigami.Units.smallSpacing * 2 : 0
    implicitHeight: row.implicitHeight
    Layout.minimumWidth: implicitWidth
    Layout.preferredWidth: Layout.minimumWidth
    Layout.maximumWidth: Layout.minimumWidth
    // Opened, Tab stays among the opened view's buttons.
    activeFocusOnTab: root.compactActive && !root.expanded
    hoverEnabled: true
    onClicked: {
        root.openedByMouse = !root.expanded;
        root.expanded = !root.expanded;
    }
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Space || event.key === Qt.Key_Return || event.key === Qt.Key_Enter || event.key === Qt.Key_Select) {
            root.expanded = !root.expanded;
            event.accepted = true;
        }
    }

    Accessible.role: Accessible.Button
    Accessible.name: root.compactName
    Accessible.onPressAction: root.expanded = !root.expanded

    TextMetrics {
        id: shape
        font.features: { "tnum": 1 }
        text: Widget.textShape(compact.view.text)
    }

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.leftMargin: Kirigami.Units.smallSpacing
        anchors.rightMargin: Kirigami.Units.smallSpacing
        spacing: Kirigami.Units.smallSpacing

        Kirigami.Icon {
            Layout.preferredWidth: Kirigami.Units.iconSizes.small
            Layout.preferredHeight: Kirigami.Units.iconSizes.small
            Layout.alignment: Qt.AlignVCenter
            source: root.iconUrl(root.compactIcon)
            active: compact.containsMouse
        }
        PlasmaComponents3.Label {
            visible: text !== ""
            text: compact.view.text
            // Tabular figures, and the width of its shape with every digit a 0: a tick
            // changes the digits only, never the width, so the panel is not laid out anew.
            font.features: { "tnum": 1 }
            Layout.minimumWidth: Math.min(shape.width, Layout.maximumWidth)
            elide: Text.ElideRight
            Layout.maximumWidth: Kirigami.Units.gridUnit * 10
            Accessible.ignored: true
        }
        PlasmaComponents3.Label {
            visible: text !== ""
            text: root.compactCount
            opacity: 0.7
            Accessible.ignored: true
        }
    }
}
