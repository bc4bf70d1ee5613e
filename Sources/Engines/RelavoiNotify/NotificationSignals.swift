import CGLib
import CNotify
import RelavoiCore

/// The libnotify signals of the banners' notifications (closed, an action
/// invoked), connected in C and heard here on the delivery thread.
final class NotificationSignals {
    typealias Notification = UnsafeMutablePointer<NotifyNotification>

    private let closed: (Notification, String) -> Void
    private let activated: (Notification, String, String) -> Void

    /// - Parameters: `closed(notification, key)`, `activated(notification, key, action)`.
    init(
        closed: @escaping (Notification, String) -> Void, activated: @escaping (Notification, String, String) -> Void
    ) {
        self.closed = closed
        self.activated = activated
    }

    /// What a signal handler's data names: whose signal, for which banner.
    private final class Handler {
        let signals: NotificationSignals
        let key: String
        init(_ signals: NotificationSignals, key: String) {
            self.signals = signals
            self.key = key
        }
    }

    func connectClosed(_ notification: Notification, key: String) {
        let handler: @convention(c) (Notification?, UnsafeMutableRawPointer?) -> Void = { notification, data in
            let handler = Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue()
            handler.signals.closed(notification!, handler.key)
        }
        let release: GClosureNotify = { data, _ in Unmanaged<Handler>.fromOpaque(data!).release() }
        let data = Unmanaged.passRetained(Handler(self, key: key)).toOpaque()
        g_signal_connect_data(
            UnsafeMutableRawPointer(notification), "closed", unsafeBitCast(handler, to: GCallback.self), data, release,
            GConnectFlags(0))
    }

    /// Sets `content`'s actions afresh (libnotify keeps them across updates).
    func setActions(_ notification: Notification, _ content: NotificationContent, key: String) {
        notify_notification_clear_actions(notification)
        let handler: NotifyActionCallback = { notification, action, data in
            let handler = Unmanaged<Handler>.fromOpaque(data!).takeUnretainedValue()
            handler.signals.activated(notification!, handler.key, action.map { String(cString: $0) } ?? "")
        }
        let release: GFreeFunc = { data in Unmanaged<Handler>.fromOpaque(data!).release() }
        let pairs = content.actionList
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            let data = Unmanaged.passRetained(Handler(self, key: key)).toOpaque()
            notify_notification_add_action(notification, pairs[index], pairs[index + 1], handler, data, release)
        }
    }
}
