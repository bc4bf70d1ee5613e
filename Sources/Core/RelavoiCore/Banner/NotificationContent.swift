/// One freedesktop `Notify` call's worth of content, independent of libnotify.
public struct NotificationContent: Equatable, Sendable {
    public enum Urgency: UInt8, Sendable { case low = 0, normal = 1, critical = 2 }

    public var summary: String
    public var body: String
    /// An icon name from the theme (the delivery driver may turn it into a file path).
    public var iconName: String
    public var category: String
    public var urgency: Urgency
    public var resident: Bool
    public var transient: Bool
    /// Milliseconds; -1 the server's default, 0 never.
    public var expireTimeout: Int32
    public var soundName: String?
    public var suppressSound: Bool
    /// Which notification of the banner this is: content with another
    /// identity closes the banner's notification and shows a new one (one
    /// notification per call phase, where the server needs it). "" = one
    /// notification for the banner's whole life.
    public var identity: String = ""
    /// The label of the `default` action (a click on the banner), or nil for none.
    public var defaultAction: String?
    /// Buttons after the click action (a question's answers), in order.
    public var buttons: [NotificationButton] = []
    /// The person should see it for as long as it lasts (ringing; live with
    /// keep-on-screen): where the server takes even a never-expiring popup down
    /// (`NotificationServerRules.keptUpPopupLifetime`), the delivery
    /// machine shows it again before then. Not sent to the server.
    public var keptUp = false

    /// The category of a ringing call (the freedesktop spec's `call.incoming`).
    public static let ringingCategory = "call.incoming"

    /// The same content without its sound, if it has one: what goes when it is sent again.
    public mutating func silence() {
        guard soundName != nil else { return }
        soundName = nil
        suppressSound = true
    }

    /// The `Notify` actions: id and label in turn, the click action first.
    public var actionList: [String] {
        (defaultAction.map { ["default", $0] } ?? []) + buttons.flatMap { [$0.id, $0.label] }
    }

    /// Whether `other` has the same actions; compares the fields, so a tick
    /// builds no action list.
    public func hasSameActions(as other: NotificationContent) -> Bool {
        defaultAction == other.defaultAction && buttons == other.buttons
    }

    public init(
        summary: String, body: String, iconName: String, category: String, urgency: Urgency = .normal,
        resident: Bool = false, transient: Bool = false, expireTimeout: Int32 = -1,
        soundName: String? = nil, suppressSound: Bool = false
    ) {
        self.summary = summary
        self.body = body
        self.iconName = iconName
        self.category = category
        self.urgency = urgency
        self.resident = resident
        self.transient = transient
        self.expireTimeout = expireTimeout
        self.soundName = soundName
        self.suppressSound = suppressSound
    }
}
