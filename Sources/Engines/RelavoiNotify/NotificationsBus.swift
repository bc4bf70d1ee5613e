/// Where the notification server is on the session bus (the spec's names).
enum NotificationsBus {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
}
