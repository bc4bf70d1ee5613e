import CAdw
import RelavoiGLib

extension Widget {
    /// The GType's name (`GtkToggleButton`).
    public var typeName: String { String(cString: relavoi_type_name(widget)) }

    /// Every widget inside this one, depth first (a composite widget's own parts too).
    public var descendants: [Widget] {
        var out: [Widget] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            let found = Widget(current)
            out.append(found)
            out += found.descendants
            child = gtk_widget_get_next_sibling(current)
        }
        return out
    }
}
