/// A notification of the agent's own that is not a call: a question to the person, or a
/// problem that keeps calls from showing. No timer; it stays until answered or closed.
public struct AgentNotice: Equatable, Sendable {
    public var summary: String
    public var body: String
    public var iconName: String
    public var urgency: NotificationContent.Urgency
    /// The spec's category ("network.disconnected"…), or "" for none.
    public var category: String
    /// The answers the person can give, where the server shows actions.
    public var buttons: [NotificationButton]
    /// Stays until its cause goes (true), or goes the way of an ordinary notification.
    public var lasting: Bool

    public init(
        summary: String, body: String, iconName: String = RelavoiIcon.name,
        urgency: NotificationContent.Urgency = .normal, category: String = "", buttons: [NotificationButton] = [],
        lasting: Bool = true
    ) {
        self.lasting = lasting
        self.category = category
        self.summary = summary
        self.body = body
        self.iconName = iconName
        self.urgency = urgency
        self.buttons = buttons
    }
}
