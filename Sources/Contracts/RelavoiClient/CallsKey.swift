/// The keys of one entry of the agent's `Calls` property (docs/dbus.md): the
/// agent writes them, the window and `ctl` read them; the GNOME extension and
/// the Plasma widget read the same keys from the document.
package enum CallsKey: String, CaseIterable, Sendable {
    case sessionId = "session-id"
    case label
    case proxyNumber = "proxy-number"
    case badge
    case badgeText = "badge-text"
    case phase
    case rangAt = "rang-at"
    case answeredAt = "answered-at"
    case endedAt = "ended-at"
    case duration
    case canOpen = "can-open"
    case lockScreen = "lock-screen"
    case lockLabel = "lock-label"
    case lockNumber = "lock-number"
}
