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
}
