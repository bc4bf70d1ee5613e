/// Log severity of the machine's messages (mapped onto GLib levels by the driver).
public enum StreamLogLevel: Equatable, Sendable {
    case debug, info, warning
}
