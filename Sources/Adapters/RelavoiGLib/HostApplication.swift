import CGLib
import FoundationEssentials

/// Who the running program says it is to GLib, which a GTK or GApplication
/// host has set up by the time it shows anything.
public enum HostApplication {
    /// The default `GApplication`'s id, else `g_get_prgname()`, else the
    /// executable's name: the name of its desktop file, by convention.
    public static var id: String {
        if let app = g_application_get_default(), let id = g_application_get_application_id(app) {
            return String(cString: id)
        }
        if let name = g_get_prgname() { return String(cString: name) }
        return ProcessInfo.processInfo.processName
    }

    /// `g_get_application_name()` (which falls back to the program name),
    /// else the executable's name.
    public static var name: String {
        if let name = g_get_application_name() { return String(cString: name) }
        return ProcessInfo.processInfo.processName
    }
}
