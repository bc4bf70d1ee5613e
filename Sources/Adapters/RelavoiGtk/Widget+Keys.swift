import CAdw
import RelavoiGLib

extension Widget {
    /// Makes the arrow keys move a radio group's choice, as a radio group's convention is (one
    /// Tab stop, the arrows within): on this GtkCheckButton of a stacked group, Down and Right
    /// focus and turn on the next button, Up and Left the previous one (GTK's own group move,
    /// which alone finds no button to the left or right of one in a column).
    public func arrowsMoveWithinRadioGroup() {
        let keys = gtk_event_controller_key_new()!
        let pressed: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
            _, keyval, _, state, button in
            // Ctrl, Alt or Super with an arrow is someone else's shortcut.
            let shortcut = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue
            guard state.rawValue & shortcut == 0 else { return 0 }
            let direction: GtkDirectionType
            switch Int32(keyval) {
            case GDK_KEY_Up, GDK_KEY_KP_Up, GDK_KEY_Left, GDK_KEY_KP_Left: direction = GTK_DIR_UP
            case GDK_KEY_Down, GDK_KEY_KP_Down, GDK_KEY_Right, GDK_KEY_KP_Right: direction = GTK_DIR_DOWN
            default: return 0
            }
            _ = gtk_widget_child_focus(button?.assumingMemoryBound(to: GtkWidget.self), direction)
            return 1
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(pressed, to: GCallback.self), raw, nil,
            GConnectFlags(0))
        gtk_widget_add_controller(widget, keys)
    }
}
