import FoundationEssentials

/// The user's banner settings (the `[agent]` group of `agent.conf`).
public struct BannerSettings: Equatable, Sendable {
    /// `banners-enabled`: false turns every banner off (start does nothing).
    public var enabled: Bool = true
    /// `keep-on-screen`: keep the banner popped up for the whole call.
    public var keepOnScreen: Bool = false
    /// `ring-through-dnd`: ringing breaks through Do Not Disturb at critical urgency.
    public var ringThroughDoNotDisturb: Bool = false

    public init(enabled: Bool = true, keepOnScreen: Bool = false, ringThroughDoNotDisturb: Bool = false) {
        self.enabled = enabled
        self.keepOnScreen = keepOnScreen
        self.ringThroughDoNotDisturb = ringThroughDoNotDisturb
    }

    /// Reads the banner keys from a settings group; unknown keys are left to
    /// others, bad values are reported.
    public init(group: [String: String]) throws(SettingsError) {
        for (key, raw) in group.sorted(by: { $0.key < $1.key }) {
            _ = try apply(key: key, raw: raw)
        }
    }

    /// Takes one `key = raw` line if it is a banner key (the only parser of
    /// these keys: the agent's settings hand them here too). Returns false
    /// for any other key.
    public mutating func apply(key: String, raw: String) throws(SettingsError) -> Bool {
        switch key {
        case "banners-enabled": enabled = try SettingsValue.bool(raw, key: key)
        case "keep-on-screen": keepOnScreen = try SettingsValue.bool(raw, key: key)
        case "ring-through-dnd": ringThroughDoNotDisturb = try SettingsValue.bool(raw, key: key)
        default: return false
        }
        return true
    }
}
