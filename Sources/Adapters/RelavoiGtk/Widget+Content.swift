import CAdw
import RelavoiGLib

/// Texts, switches and choices.
extension Widget {
    /// A GtkLabel's text.
    public func setLabel(_ text: String) { gtk_label_set_text(opaque, text) }
    public var label: String { String(cString: gtk_label_get_text(opaque)) }

    /// A GtkButton's label.
    public func setButtonLabel(_ text: String) { gtk_button_set_label(typed(GtkButton.self), text) }

    /// A GtkEditable's text (GtkEntry, GtkPasswordEntry, AdwEntryRow, AdwPasswordEntryRow).
    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        nonmutating set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Keeps what is typed into this password row or entry off the accessibility bus while
    /// it is hidden (GTK 4.8 would send each character): read it with `secretText`.
    public func keepSecretOffAccessibility() { _ = relavoi_secret_keep(widget) }
    /// What was typed into a row given to `keepSecretOffAccessibility` (its `text` is dots).
    public var secretText: String { String(cString: relavoi_secret_text(widget)) }

    /// An AdwPreferencesRow's title and an AdwActionRow's subtitle.
    public func setTitle(_ text: String) { adw_preferences_row_set_title(typed(AdwPreferencesRow.self), text) }
    public func setSubtitle(_ text: String) { adw_action_row_set_subtitle(typed(AdwActionRow.self), text) }
    /// An AdwPreferencesGroup's description.
    public func setDescription(_ text: String?) {
        adw_preferences_group_set_description(typed(AdwPreferencesGroup.self), text)
    }

    /// A GtkSwitch's state.
    public var isOn: Bool {
        get { gtk_switch_get_active(opaque) != 0 }
        nonmutating set { gtk_switch_set_active(opaque, newValue ? 1 : 0) }
    }

    /// A GtkCheckButton's state (in a group: turning one on turns the others off).
    public var isChecked: Bool {
        get { gtk_check_button_get_active(typed(GtkCheckButton.self)) != 0 }
        nonmutating set { gtk_check_button_set_active(typed(GtkCheckButton.self), newValue ? 1 : 0) }
    }

    /// An AdwComboRow's chosen item (0-based).
    public var selectedIndex: Int {
        get { Int(adw_combo_row_get_selected(typed(AdwComboRow.self))) }
        nonmutating set { adw_combo_row_set_selected(typed(AdwComboRow.self), guint(newValue)) }
    }

    /// An AdwExpanderRow's state.
    public var isExpanded: Bool {
        get { adw_expander_row_get_expanded(typed(AdwExpanderRow.self)) != 0 }
        nonmutating set { adw_expander_row_set_expanded(typed(AdwExpanderRow.self), newValue ? 1 : 0) }
    }

    /// An AdwViewStack's page.
    public var visiblePage: String {
        get { adw_view_stack_get_visible_child_name(opaque).map { String(cString: $0) } ?? "" }
        nonmutating set { adw_view_stack_set_visible_child_name(opaque, newValue) }
    }

    /// A GtkSpinner.
    public func setSpinning(_ on: Bool) { gtk_spinner_set_spinning(opaque, on ? 1 : 0) }
}
