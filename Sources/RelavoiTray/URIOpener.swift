import CGLib
import RelavoiGLib

/// Opens a URL with the session's default handler for its scheme (GIO: the
/// desktop's browser, through mimeapps.list), as `xdg-open` would.
public enum URIOpener {
    public static func open(_ uri: String) {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, nil, &error) == 0 {
            Log.warning("tray item: cannot open the call's page: \(TrayGError.take(error))")
        }
    }
}
