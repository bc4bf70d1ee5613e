/// One banner's quiet updates (its per-second ticks) while its notification
/// is settled on the server, sent by whichever thread posts them rather than
/// by the presenter: at most one under way, the latest content sent when it
/// is answered, identical content never sent twice.
///
/// The presenter opens a lane when a banner is settled and takes it back for
/// anything else (a pop, a new notification, another click action, an answer
/// it must look at, the banner closing); a lane taken back, or shut by a
/// decline, takes nothing more. Pure: the caller sends what it is told to.
public struct QuietUpdateLane: Equatable, Sendable {
    public enum Offer: Equatable, Sendable {
        /// Send this now: it is under way from here on.
        case send(NotificationContent)
        /// Taken in: it waits for the answer under way, or the server has it.
        case taken
        /// Not this lane's: give it to the presenter (the lane is shut).
        case declined
    }

    public enum Answer: Equatable, Sendable {
        /// The server has the latest content.
        case settled
        /// The latest content is next: send it.
        case send(NotificationContent)
        /// The presenter must look at the answer (the lane is shut).
        case handOver
    }

    /// How long an update may stay unanswered before the presenter takes the
    /// banner back (GDBus's default call timeout).
    public static let answerTimeout = 25.0

    /// The notification's identity, actions and icon, which every
    /// content of the lane keeps.
    public let identity: String
    private let settledOn: NotificationContent
    public let iconName: String
    /// Whether the server needs a pop to wait until the previous one has
    /// settled (GNOME 43): then only low urgency, which never pops, is quiet.
    public let popsWaitTheirTurn: Bool
    /// What the server has.
    public private(set) var acknowledged: NotificationContent
    /// The latest content taken in.
    public private(set) var desired: NotificationContent
    /// The content sent and not answered yet, and when it went.
    public private(set) var underWay: NotificationContent?
    public private(set) var sentAt: Double?
    public private(set) var isOpen = true

    /// A lane for a banner whose notification shows `content`.
    public init(settledOn content: NotificationContent, popsWaitTheirTurn: Bool) {
        self.popsWaitTheirTurn = popsWaitTheirTurn
        identity = content.identity
        settledOn = content
        iconName = content.iconName
        acknowledged = content
        desired = content
    }

    /// Whether `content` is a quiet update of the same notification: another
    /// notification, click action or icon, or a pop that must wait its turn,
    /// is the presenter's.
    public func accepts(_ content: NotificationContent) -> Bool {
        (content.urgency == .low || !popsWaitTheirTurn) && content.identity == identity
            && content.hasSameActions(as: settledOn)
            && content.iconName == iconName
    }

    public mutating func offer(_ content: NotificationContent, now: Double) -> Offer {
        guard isOpen, accepts(content) else { return shut(.declined) }
        if underWay != nil, let sentAt {
            // A server that has not answered for this long is the presenter's.
            guard now - sentAt < Self.answerTimeout else { return shut(.declined) }
            desired = content
            return .taken
        }
        desired = content
        guard content != acknowledged else { return .taken }
        start(content, now: now)
        return .send(content)
    }

    /// The update under way was answered: `applied` when the server took it
    /// for the lane's notification (same id, no error).
    public mutating func answered(applied: Bool, now: Double) -> Answer {
        guard let sent = underWay else { return isOpen ? .settled : .handOver }
        underWay = nil
        sentAt = nil
        if applied { acknowledged = sent }
        guard isOpen, applied else { return shut(.handOver) }
        guard desired != acknowledged else { return .settled }
        start(desired, now: now)
        return .send(desired)
    }

    /// Takes nothing more: the presenter is to take the banner back.
    public mutating func shut() { isOpen = false }

    private mutating func start(_ content: NotificationContent, now: Double) {
        underWay = content
        sentAt = now
    }

    private mutating func shut<T>(_ result: T) -> T {
        isOpen = false
        return result
    }
}
