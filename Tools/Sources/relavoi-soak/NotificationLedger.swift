import RelavoiTestSupport

/// What one notification server instance was sent, by notification id. The
/// mock answers `Notify` with `replaces_id` when it is not 0 and otherwise
/// with its next id (1, 2, …), so the ids can be worked out from the calls.
struct NotificationLedger {
    struct Notification {
        var id: UInt32
        var summary: String
        var category: String
        /// `expire_timeout` 0: stays until closed (the live banners).
        var resident: Bool
        var updates: Int
        var closed: Bool
    }

    private(set) var notifications: [UInt32: Notification] = [:]
    private(set) var notifyCount = 0
    private(set) var closeCount = 0

    init(calls: [MockNotificationServer.Received]) {
        var nextId: UInt32 = 1
        for call in calls {
            switch call {
            case .notify(let notify):
                notifyCount += 1
                let replaces = notify.replacesId
                let id: UInt32
                if replaces != 0 {
                    id = replaces
                } else {
                    id = nextId
                    nextId += 1
                }
                let updates = (notifications[id]?.updates ?? 0) + 1
                notifications[id] = Notification(
                    id: id, summary: notify.summary, category: notify.hints["category"] ?? "",
                    resident: notify.timeout == 0, updates: updates, closed: false)
            case .close(let id):
                closeCount += 1
                notifications[id]?.closed = true
            case .other:
                break
            }
        }
    }

    /// Notifications that stay on screen until closed and were not closed.
    var openResident: [Notification] {
        notifications.values.filter { $0.resident && !$0.closed }.sorted { $0.id < $1.id }
    }
}
