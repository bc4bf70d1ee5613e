import CGLib

/// GLib structured logging (journald under systemd, stderr otherwise).
/// Never pass secrets here.
public enum Log {
    public static let domain = "relavoi"

    public static func debug(_ message: @autoclosure () -> String) {
        // G_LOG_LEVEL_DEBUG is filtered by GLib unless G_MESSAGES_DEBUG names us.
        relavoi_log(G_LOG_LEVEL_DEBUG, domain, message())
    }
    public static func info(_ message: String) { relavoi_log(G_LOG_LEVEL_INFO, domain, message) }
    public static func message(_ message: String) { relavoi_log(G_LOG_LEVEL_MESSAGE, domain, message) }
    public static func warning(_ message: String) { relavoi_log(G_LOG_LEVEL_WARNING, domain, message) }

    /// `--verbose`: show our debug and info lines on stderr (not every library's).
    public static func enableVerbose() {
        setenv("G_MESSAGES_DEBUG", domain, 1)
    }
}
