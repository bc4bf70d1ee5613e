// Opened: a card per call that rings, runs or just ended (label, number, badge word,
// timer or state; Open and Dismiss), the missed calls the agent holds, why calls cannot
// show, and Settings… (the Relavoi window). Every control is reached with Tab.
import QtQuick
import QtQuick.Layouts
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras
import org.kde.kirigami as Kirigami
import "../code/widget.js" as Widget

FocusScope {
    id: full

    readonly property var view: root.fullView

    // A card of the view, or a blank one while the view goes (closing clears it first).
    function cardAt(cards, index) {
        return cards && index < cards.length ? cards[index] : Widget.blankCard();
    }

    implicitWidth: Kirigami.Units.gridUnit * 20
    implicitHeight: content.implicitHeight + Kirigami.Units.largeSpacing * 2
    Layout.minimumWidth: Kirigami.Units.gridUnit * 18
    Layout.preferredWidth: implicitWidth
    Layout.minimumHeight: implicitHeight
    Layout.preferredHeight: implicitHeight

    // The view's items exist only while it is open. Closed, a button that had the focus
    // ring fades it out in the hidden popup, an animation that never ends there: it kept
    // plasmashell waking about 64 times a second (Plasma 6.7.4, measured). Closed, a
    // live call's tick also changes nothing here.
    // Opened (Enter on the panel item, or the widget's shortcut): focus goes in, on
    // Settings…, its ring shown; Tab and Shift+Tab reach the calls' buttons.
    Loader {
        id: content
        anchors.fill: parent
        active: root.expanded && full.view !== null
        focus: true
        sourceComponent: contentComponent
        // Opened by keyboard (or the shortcut), the focused button shows its ring at once,
        // as after Tab; opened with the mouse, only once a key moves the focus.
        onLoaded: content.forceActiveFocus(root.openedByMouse ? Qt.MouseFocusReason : Qt.TabFocusReason)
    }

    Component {
        id: contentComponent

        FocusScope {
            id: scope

            // How the focused button got the focus (its ring shows for a key's).
            property int focusReason: Qt.OtherFocusReason

            implicitHeight: column.implicitHeight
            // The Loader passes its focus on only to an item that asks for it.
            focus: true

            // A focused button that goes with its call (Dismiss, or the call's end) leaves
            // the focus on this scope, on nothing a person sees: it goes on to Settings…,
            // its ring shown as the gone button's was.
            Connections {
                target: scope.Window.window
                function onActiveFocusItemChanged() {
                    const item = scope.Window.activeFocusItem;
                    if (item === scope)
                        settingsButton.forceActiveFocus(scope.focusReason);
                    else if (item && item.focusReason !== undefined)
                        scope.focusReason = item.focusReason;
                }
            }

            ColumnLayout {
                id: column
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                anchors.margins: Kirigami.Units.largeSpacing
                spacing: Kirigami.Units.largeSpacing

                PlasmaComponents3.Label {
                    Layout.fillWidth: true
                    visible: full.view.healthLine !== ""
                    text: full.view.healthLine
                    wrapMode: Text.WordWrap
                }

                PlasmaComponents3.Label {
                    Layout.fillWidth: true
                    visible: full.view.calls.length === 0 && full.view.missed.length === 0 && full.view.healthLine === ""
                    text: i18nd(root.domain, "No call")
                    opacity: 0.7
                }

                // The model is the number of cards, so that a tick (a new view each second)
                // keeps the cards and the focus on their buttons: only their texts change.
                Repeater {
                    model: full.view.calls.length
                    delegate: CallCard {
                        required property int index
                        Layout.fillWidth: true
                        modelData: full.cardAt(full.view.calls, index)
                    }
                }

                PlasmaExtras.Heading {
                    Layout.fillWidth: true
                    visible: full.view.missed.length > 0
                    level: 5
                    text: i18nd(root.domain, "Missed calls")
                }

                // The model is the number of cards, so that a tick (a new view each second)
                // keeps the cards and the focus on their buttons: only their texts change.
                Repeater {
                    model: full.view.missed.length
                    delegate: CallCard {
                        required property int index
                        Layout.fillWidth: true
                        modelData: full.cardAt(full.view.missed, index)
                    }
                }

                PlasmaComponents3.Button {
                    id: settingsButton
                    Layout.alignment: Qt.AlignRight
                    focus: true
                    text: full.view.settings.label
                    icon.name: "configure"
                    Accessible.name: full.view.settings.accessibleName
                    onClicked: root.openSettings()
                }
            }
        }
    }
}
