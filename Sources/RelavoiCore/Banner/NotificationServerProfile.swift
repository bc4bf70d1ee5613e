/// What the running notification server is and how it treats updates, from
/// `GetServerInformation` and `GetCapabilities`. Servers differ on updates with
/// the same id (see README.md, "What each server shows").
public struct NotificationServerProfile: Equatable, Sendable {
    public enum Family: String, Sendable {
        /// Re-pops the banner and replays the sound on every normal-urgency update.
        case gnome
        /// Rejects identical content sent again within a second.
        case kde
        /// Writes a history entry on every change unless `transient`.
        case xfce
        case dunst
        case other
    }

    public var name: String
    public var family: Family
    public var capabilities: Set<String>

    public init(name: String, vendor: String = "", capabilities: Set<String>) {
        self.name = name
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
        } else {
            family = .other
        }
    }

    /// Before the server answered: plain text, no special treatment.
    public static let unknown = NotificationServerProfile(name: "unknown", capabilities: [])

    public var rendersMarkup: Bool { capabilities.contains("body-markup") }

    /// Seconds a banner needs after popping up before the next update that
    /// pops (urgency normal): GNOME Shell 43 hides a banner updated during its
    /// 200 ms slide-in while the user is active (its `_updateState` finds no
    /// hide timeout yet and takes the banner for expired). Critical updates
    /// and low-urgency ones are safe at any time. The presenter holds such an
    /// update back until this much time has passed since the pop; 0 elsewhere.
    public var popSettleInterval: Double { family == .gnome ? 0.3 : 0 }
    public var playsSounds: Bool { capabilities.contains("sound") }
}
