import CAdw
import RelavoiGLib

extension Widget {
    /// Makes the arrow keys move a radio group's choice, as a radio group's convention is (one
    /// Tab stop, the arrows within): on this GtkCheckButton of a stacked group, Down and Right
    /// focus and turn on the next button, Up and Left the previous one, Left and Right swapped in
    /// a right-to-left language (GTK's own group move, which alone finds no button to the left
    /// or right of one in a column).
    public func arrowsMoveWithinRadioGroup() {
        let keys = gtk_event_controller_key_new()!
        let pressed: @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
            _, keyval, _, state, button in
            // Ctrl, Alt or Super with an arrow is someone else's shortcut.
            let shortcut = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue
            guard state.rawValue & shortcut == 0 else { return 0 }
            let widget = button?.assumingMemoryBound(to: GtkWidget.self)
            let rightToLeft = gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL
            let direction: GtkDirectionType
            switch Int32(keyval) {
            case GDK_KEY_Up, GDK_KEY_KP_Up: direction = GTK_DIR_UP
            case GDK_KEY_Down, GDK_KEY_KP_Down: direction = GTK_DIR_DOWN
            case GDK_KEY_Left, GDK_KEY_KP_Left: direction = rightToLeft ? GTK_DIR_DOWN : GTK_DIR_UP
            case GDK_KEY_Right, GDK_KEY_KP_Right: direction = rightToLeft ? GTK_DIR_UP : GTK_DIR_DOWN
            default: return 0
            }
            _ = gtk_widget_child_focus(widget, direction)
            return 1
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(pressed, to: GCallback.self), raw, nil,
            GConnectFlags(0))
        gtk_widget_add_controller(widget, keys)
    }
}
