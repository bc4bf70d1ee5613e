// One call: badge icon, label, number and badge word, its timer or how it ended, and its
// actions. The card is one accessible text (the pill's sentence); the buttons have names
// that say which call they act on.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.components as PlasmaComponents3
import org.kde.kirigami as Kirigami
import "../code/widget.js" as Widget

ColumnLayout {
    id: card

    // One entry of the opened view (widget.js card()); a tick gives a new one, same card.
    property var modelData: Widget.blankCard()

    spacing: Kirigami.Units.smallSpacing

    RowLayout {
        Layout.fillWidth: true
        spacing: Kirigami.Units.smallSpacing
        Accessible.role: Accessible.StaticText
        Accessible.name: card.modelData.accessibleName

        Kirigami.Icon {
            Layout.preferredWidth: Kirigami.Units.iconSizes.medium
            Layout.preferredHeight: Kirigami.Units.iconSizes.medium
            source: root.iconUrl(card.modelData.icon)
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 0
            PlasmaComponents3.Label {
                Layout.fillWidth: true
                text: card.modelData.title
                font.weight: Font.DemiBold
                elide: Text.ElideRight
            }
            PlasmaComponents3.Label {
                Layout.fillWidth: true
                visible: text !== ""
                text: card.modelData.number
                elide: Text.ElideRight
            }
            PlasmaComponents3.Label {
                Layout.fillWidth: true
                text: card.modelData.badgeText
                opacity: 0.7
                elide: Text.ElideRight
            }
        }
        PlasmaComponents3.Label {
            text: card.modelData.status
            font.features: { "tnum": 1 }
        }
    }

    RowLayout {
        Layout.alignment: Qt.AlignRight
        visible: card.modelData.canOpen || card.modelData.canDismiss
        PlasmaComponents3.Button {
            visible: card.modelData.canOpen
            text: card.modelData.open
            icon.name: "internet-services"
            Accessible.name: card.modelData.openName
            onClicked: root.call("Open", card.modelData.sessionId, "(s)")
        }
        PlasmaComponents3.Button {
            visible: card.modelData.canDismiss
            text: card.modelData.dismiss
            icon.name: "window-close"
            Accessible.name: card.modelData.dismissName
            onClicked: root.call("Dismiss", card.modelData.sessionId, "(s)")
        }
    }
}
