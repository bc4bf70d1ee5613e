import RelavoiGtk

/// The window's few rules over libadwaita's own.
enum WindowStyle {
    /// libadwaita 1.2 draws an entry row's focus ring with `row.entry.focused`, but its
    /// `row.expander list.nested > row` rule (outline: 0 transparent) is more specific, so
    /// the server address, inside Advanced, showed no ring while typed into. The same ring
    /// here, for an entry row in an expander. The lock-screen radio buttons as tall as rows.
    static let css = """
        row.expander list.nested > row.entry.focused {
            outline-color: alpha(@accent_color, 0.5); outline-width: 2px; outline-offset: -1px;
        }
        checkbutton.radio-choice { padding: 12px; }
        checkbutton.radio-choice > label { margin-left: 6px; }
        """

    @MainActor static func apply() { Widget.addStyleSheet(css) }
}
