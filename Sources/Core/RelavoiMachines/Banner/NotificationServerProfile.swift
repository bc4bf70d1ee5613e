/// What the running notification server is and how it treats updates, from
/// `GetServerInformation` and `GetCapabilities`. Servers differ on updates with
/// the same id (see docs/banner.md and docs/servers.md).
public struct NotificationServerProfile: Equatable, Sendable {
    public enum Family: String, Sendable {
        /// Re-pops the banner and replays the sound on every normal-urgency update.
        case gnome
        /// Rejects identical content sent again within a second.
        case kde
        /// Writes a history entry on every change unless `transient`.
        case xfce
        case dunst
        /// System76's cosmic-notifications (COSMIC): rules read from its source.
        case cosmic
        /// Cinnamon's shell (its name is "cinnamon", its vendor "GNOME").
        case cinnamon
        /// budgie-daemon ("Budgie Notification Server").
        case budgie
        case mako
        /// SwayNotificationCenter.
        case swaync
        case other
    }

    public var name: String
    public var family: Family
    /// `GetServerInformation`'s version, e.g. "48.7"; "" when not known.
    public var version: String
    public var capabilities: Set<String>

    public init(name: String, vendor: String = "", version: String = "", capabilities: Set<String>) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        let id = (name + " " + vendor).lowercased()
        if id.contains("gnome-shell") || id.contains("gnome shell") {
            family = .gnome
        } else if id.contains("plasma") || id.contains("kde") {
            family = .kde
        } else if id.contains("xfce") {
            family = .xfce
        } else if id.contains("dunst") {
            family = .dunst
        } else if id.contains("cosmic-notifications") {
            family = .cosmic
        } else if id.hasPrefix("cinnamon") {
            family = .cinnamon
        } else if id.contains("budgie") {
            family = .budgie
        } else if id.hasPrefix("mako") {
            family = .mako
        } else if id.contains("swaynotificationcenter") {
            family = .swaync
        } else {
            family = .other
        }
    }

    /// Before the server answered: plain text, no special treatment.
    public static let unknown = NotificationServerProfile(name: "unknown", capabilities: [])

    public var rendersMarkup: Bool { capabilities.contains("body-markup") }

    /// The major version (48 of "48.7"); nil when not known.
    public var majorVersion: Int? { Int(version.prefix { $0.isNumber }) }

    /// How this server must be fed: the one table of per-server quirks.
    public var rules: NotificationServerRules {
        NotificationServerRules(family: family, majorVersion: majorVersion, version: version)
    }

    public var popSettleInterval: Double { rules.popSettleInterval }
}
