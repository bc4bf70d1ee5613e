import CGLib
import CNotify
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// One banner's notification: a libnotify object, used and released on the
/// delivery thread only. libnotify keeps its server id, sends its updates
/// with it, and matches the server's closed and action signals to it.
final class BannerNotification {
    let key: String
    let pointer: UnsafeMutablePointer<NotifyNotification>
    private let signals: NotificationSignals
    /// What was last shown, for its actions (set only when they change).
    private var shownContent: NotificationContent?
    /// Whether it was updated in place after its first show.
    private(set) var wasUpdated = false

    /// - Parameters:
    ///   - signals: hears the object's closed and action signals.
    ///   - id: the server's id of a notification it expired, which this one
    ///     shows again (its first `Notify` replaces it); nil: a new one.
    init(key: String, signals: NotificationSignals, id: UInt32? = nil) {
        self.key = key
        self.signals = signals
        pointer = notify_notification_new("", nil, nil)
        if let id { relavoi_notification_set_id(pointer, gint(bitPattern: id)) }
        signals.connectClosed(pointer, key: key)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The server's id (0 until a show succeeded).
    var id: UInt32 { UInt32(bitPattern: relavoi_notification_id(pointer)) }

    /// What became of a show.
    enum Outcome: Equatable {
        case shown, failed
        /// The server did not answer in time (GDBus's 25 s): it may still carry it out.
        case timedOut
    }

    /// Shows `content` (libnotify's synchronous `Notify`), in place once shown.
    func show(_ content: NotificationContent, icon: String, owner: BannerOwner, rules: NotificationServerRules)
        -> Outcome
    {
        let previousID = id
        notify_notification_update(pointer, content.summary, content.body, icon)
        // Hints persist across updates in libnotify: start from none each time.
        notify_notification_clear_hints(pointer)
        notify_notification_set_app_name(pointer, owner.appName)
        notify_notification_set_timeout(pointer, content.expireTimeout)
        for hint in NotifyHints.hints(for: content, owner: owner, icon: icon, rules: rules) {
            notify_notification_set_hint(pointer, hint.key, hint.value)
        }
        if shownContent?.hasSameActions(as: content) != true {
            // Actions persist too, and libnotify finds a click's handler by them.
            signals.setActions(pointer, content, key: key)
        }
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(pointer, &error) != 0 else {
            if let error, error.pointee.domain == g_io_error_quark(),
                error.pointee.code == G_IO_ERROR_TIMED_OUT.rawValue
            {
                g_error_free(error)
                return .timedOut
            }
            Log.warning("notification server: could not show banner: \(GErrorText.take(error))")
            return .failed
        }
        shownContent = content
        if previousID != 0 {
            wasUpdated = true
            if id != previousID {
                // The server made a new notification for the update (mako and GNOME
                // do when the old one is gone; a server without replacing always):
                // the old one, if it is still there, must not stay beside it.
                Self.close(id: previousID)
            }
        }
        return .shown
    }

    /// Takes notification `id`, which the server made for a show it answered
    /// late; the one it had before, if another, must not stay beside it.
    func adopt(id newID: UInt32) {
        let previousID = id
        relavoi_notification_set_id(pointer, gint(bitPattern: newID))
        if previousID != 0, previousID != newID { Self.close(id: previousID) }
    }

    /// Closes it on the server (libnotify's synchronous `CloseNotification`);
    /// one never shown has nothing there.
    func close() {
        guard id != 0 else { return }
        Self.close(pointer, failure: { Log.warning("notification server: could not close banner: \($0)") })
    }

    /// Closes it again after the user dismissed it: dunst makes an update
    /// that crossed the dismissal a new notification under the same id,
    /// which would stay. Closing one that is gone only errs.
    func closeAfterDismissal() {
        Self.close(pointer, failure: { Log.debug("notification server: nothing more to close (\($0))") })
    }

    /// Closes notification `id` through a libnotify object made for it.
    static func close(id: UInt32) {
        let stray = notify_notification_new("", nil, nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(stray)) }
        relavoi_notification_set_id(stray, gint(bitPattern: id))
        close(stray, failure: { Log.debug("notification server: the replaced notification \(id) is gone (\($0))") })
    }

    private static func close(_ pointer: UnsafeMutablePointer<NotifyNotification>, failure: (String) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(pointer, &error) == 0 { failure(GErrorText.take(error)) }
    }
}
