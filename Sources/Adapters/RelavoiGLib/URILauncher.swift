import CGLib

/// Opens a URL with the desktop's default handler for its scheme (GIO's
/// `g_app_info_launch_default_for_uri`), as a click on a banner asks.
public enum URILauncher {
    /// - Parameter activationToken: the notification server's token for the
    ///   click (`ActivationToken`): the launched app gets it as
    ///   `XDG_ACTIVATION_TOKEN` (Wayland) and `DESKTOP_STARTUP_ID` (X11), so
    ///   its window is raised rather than left behind the others.
    /// - Returns: nil when the handler was started, else GIO's reason.
    public static func open(_ uri: String, activationToken: String?) -> String? {
        let context = g_app_launch_context_new()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        for name in ChildEnvironment.withheld { g_app_launch_context_unsetenv(context, name) }
        if let token = activationToken, !token.isEmpty {
            g_app_launch_context_setenv(context, "XDG_ACTIVATION_TOKEN", token)
            g_app_launch_context_setenv(context, "DESKTOP_STARTUP_ID", token)
        }
        var error: UnsafeMutablePointer<GError>?
        guard g_app_info_launch_default_for_uri(uri, context, &error) == 0 else { return nil }
        return GErrorText.take(error)
    }
}
