import CAdw
import RelavoiGLib

/// Rows made in code (a list whose length changes: the calls).
extension Widget {
    /// A new AdwActionRow with a title, a subtitle and, at its end, a text.
    public static func actionRow(title: String, subtitle: String, suffix: String) -> (row: Widget, suffix: Widget) {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(
            UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwPreferencesRow.self), title)
        adw_action_row_set_subtitle(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwActionRow.self), subtitle)
        let label = gtk_label_new(suffix)!
        gtk_widget_add_css_class(label, "numeric")
        adw_action_row_add_suffix(UnsafeMutableRawPointer(row).assumingMemoryBound(to: AdwActionRow.self), label)
        return (Widget(row), Widget(label))
    }

    /// Adds or removes a row of an AdwPreferencesGroup.
    public func addRow(_ row: Widget) { adw_preferences_group_add(typed(AdwPreferencesGroup.self), row.widget) }
    public func removeRow(_ row: Widget) { adw_preferences_group_remove(typed(AdwPreferencesGroup.self), row.widget) }
}
