import CAdw
import RelavoiGLib

/// One widget of the window (owned by its parent or its builder, never by this value).
/// The calls a page needs, named for what they do; the C types stay in this module.
@MainActor
public struct Widget {
    let raw: UnsafeMutableRawPointer

    init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }
    init<T>(_ typed: UnsafeMutablePointer<T>) { self.raw = UnsafeMutableRawPointer(typed) }
    init(_ opaque: OpaquePointer) { self.raw = UnsafeMutableRawPointer(opaque) }

    var widget: UnsafeMutablePointer<GtkWidget> { raw.assumingMemoryBound(to: GtkWidget.self) }
    var opaque: OpaquePointer { OpaquePointer(raw) }
    func typed<T>(_: T.Type) -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        nonmutating set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        nonmutating set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    public func grabFocus() { gtk_widget_grab_focus(widget) }

    public func setStyle(_ cssClass: String, _ on: Bool) {
        if on { gtk_widget_add_css_class(widget, cssClass) } else { gtk_widget_remove_css_class(widget, cssClass) }
    }

    /// The name a screen reader says (for a control whose visible label is not tied to it).
    public func setAccessibleLabel(_ text: String) { relavoi_accessible_set_label(widget, text) }
    public func setAccessibleDescription(_ text: String) { relavoi_accessible_set_description(widget, text) }

    public func setTooltip(_ text: String?) { gtk_widget_set_tooltip_text(widget, text) }

    /// GtkButton "clicked", AdwEntryRow "entry-activated", GtkEditable "changed", ….
    public func on(_ signal: String, _ run: @escaping @MainActor () -> Void) {
        SignalClosure.connectPlain(raw, signal, run)
    }

    /// `notify::PROPERTY`: the property changed.
    public func onChange(of property: String, _ run: @escaping @MainActor () -> Void) {
        SignalClosure.connectWithArgument(raw, "notify::" + property) { _ in run() }
    }
}
