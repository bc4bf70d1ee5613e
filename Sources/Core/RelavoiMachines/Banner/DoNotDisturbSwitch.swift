/// Where a desktop keeps its own Do Not Disturb switch, when it is neither
/// GNOME's `show-banners` nor a server's `Inhibited` property (both followed
/// on every desktop). Knowing it lets ringing go quiet, or break through
/// at critical urgency with `ring-through-dnd`, as on GNOME and Plasma.
public enum DoNotDisturbSwitch: Equatable, Sendable {
    /// A GSettings boolean that is false while Do Not Disturb is on.
    case settingsKeyOff(schema: String, key: String)
    /// An xfconf property (the `org.xfce.Xfconf` service) that is true while it is on.
    case xfconfProperty(channel: String, property: String)
    /// SwayNotificationCenter's control centre: `GetDnd` and the `Subscribe`
    /// (0.7) or `SubscribeV2` signal, whose second argument is the switch.
    case swayNotificationCenter
}
