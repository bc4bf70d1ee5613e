import RelavoiCore

/// What to send the notification server, and when, for every banner: the
/// rules the delivery driver keeps whatever its D-Bus calls are. Each banner has
/// at most one show under way, and the latest content goes next; content the
/// server already has is never sent again (KDE rejects it within a second,
/// others pop it up again), except to keep a never-expiring banner up where
/// the server takes it down anyway (Budgie), and then without its sound; an
/// update that would pop while the previous pop is still settling waits its
/// turn (GNOME 43); a failed show is tried again with whatever is latest by
/// then; a show the server did not answer in time waits for its late answer
/// (a hung server carries it out once it runs again), and goes again only
/// once the server answers other calls (it dropped this one); a new server
/// gets every banner anew.
///
/// Pure: the caller carries out the actions, reports each show's outcome
/// (`shown`, or `showTimedOut` and then any late answer, `answeredLate`), and
/// calls `wake` at `nextWake`.
public struct NotificationDeliveryMachine: Sendable {
    public enum Action: Equatable, Sendable {
        /// Show `content` for banner `key`: in a new notification when
        /// `newNotification` (the banner has none on this server, or its
        /// identity changed: the previous one closes first), else in place;
        /// `replaces`: the id of the banner's notification the server expired,
        /// shown again under that id (`keepsExpiredIds`).
        case show(key: String, content: NotificationContent, newNotification: Bool, replaces: UInt32? = nil)
        /// Close banner `key`'s notification.
        case close(key: String)
        /// Banner `key`'s notification is `id`: the server carried out its
        /// unanswered show late (`answeredLate`).
        case adopt(key: String, id: UInt32)
        /// Close notification `id`: the server carried out a show of ours late,
        /// for a banner that has closed or moved on since.
        case closeStray(id: UInt32)
    }

    /// How long a failed show waits before it is tried again.
    public static let retryInterval = 1.0
    /// How many expired notifications are kept for their banners' next shows
    /// (one per call at most: a call's banner that never shows again must not
    /// be kept for ever).
    public static let keptExpiredLimit = 16
    /// How long before a server's `keptUpPopupLifetime` runs out a
    /// banner that has not changed is shown again (a loaded machine is late).
    public static let refreshMargin = 2.0
    /// How long a banner whose show went unanswered waits for the late answer,
    /// once the server has answered something else since, before it goes again,
    /// silent (a server that dropped the call). A server that answers nothing
    /// (hung) gets no second show, however long: it would carry out each one
    /// when it runs again.
    public static let unansweredWait = 30.0

    private struct Banner: Sendable {
        var desired: NotificationContent
        /// What the server shows for the banner (nil: nothing known to be current).
        var sent: NotificationContent?
        /// The identity of the banner's notification on the server (nil: none).
        var identity: String?
        /// The show carried out now, whose outcome is not reported yet.
        var underWay: NotificationContent?
        /// When the server last popped the banner up.
        var poppedAt: Double?
        /// A pop waiting for the previous one to settle, until then.
        var heldUntil: Double?
        /// When a show failed, for the retry.
        var failedAt: Double?
        /// When the server last got the banner.
        var sentAt: Double?
        /// The id of its notification the server expired, for the next show.
        var replaces: UInt32?
        /// The show that took an expired id again goes once more (Raven; see
        /// `NotificationServerRules.keepsExpiredIds`).
        var repeatsOnce = false
        /// It took an expired id again: the server lists that id, and only its
        /// own expiry replaces the entry (`keepsExpiredIds`).
        var listed = false
        /// A show the server did not answer in time: it may still carry it out.
        var unanswered: NotificationContent?
        /// When the server first answered something after it left that show
        /// unanswered (it runs again): the wait for its late answer starts then.
        var answeredSince: Double?
    }

    /// A notification the server expired, kept for its banner's next show.
    private struct Expired: Sendable {
        var key: String
        var identity: String
        var id: UInt32
    }

    private var banners: [String: Banner] = [:]
    /// Whether a notification server owns its name: nothing is sent without one.
    public private(set) var serverAvailable = false
    /// The server's `NotificationServerRules.popSettleInterval`.
    private var popSettleInterval = 0.0
    /// The server's `NotificationServerRules.keepsExpiredIds`.
    private var keepsExpiredIds = false
    /// The server's `NotificationServerRules.keptUpPopupLifetime`.
    private var popupLifetime: Double?
    /// Expired notifications whose banners may show again, oldest first.
    private var expired: [Expired] = []

    public init() {}

    /// The banners posted and not closed, in key order.
    public var keys: [String] { banners.keys.sorted() }

    /// Banner `key` should show `content`, or close when nil.
    public mutating func post(key: String, content: NotificationContent?, now: Double) -> [Action] {
        guard let content else {
            // An expired notification kept for the banner stays kept: the main thread
            // takes back every banner the server closed, and the call's next phase
            // (a new banner under the same key) still replaces that entry.
            guard let banner = banners.removeValue(forKey: key) else { return [] }
            // Not closed: the server expires it (an end or a missed call), and only then
            // does its list replace the call's stale entry (`keepsExpiredIds`).
            if banner.listed, !banner.desired.resident { return [] }
            return banner.identity != nil || banner.underWay != nil ? [.close(key: key)] : []
        }
        var banner = banners[key] ?? newBanner(key: key, content: content)
        var merged = content
        if banner.heldUntil != nil, banner.desired.urgency.rawValue > merged.urgency.rawValue {
            // A tick must not cancel a pop that is waiting its turn.
            merged.urgency = banner.desired.urgency
        }
        banner.desired = merged
        banners[key] = banner
        return next(key: key, now: now)
    }

    /// The outcome of the show of `content` for banner `key`.
    public mutating func shown(key: String, content: NotificationContent, succeeded: Bool, now: Double) -> [Action] {
        if succeeded { serverAnswered(now: now) }
        guard var banner = banners[key] else { return [] }
        banner.underWay = nil
        if succeeded {
            // A show that took an expired id again goes once more (nothing counts as
            // sent yet), never with its sound a second time.
            banner.sent = banner.repeatsOnce ? nil : content
            if banner.repeatsOnce { banner.desired.silence() }
            banner.repeatsOnce = false
            banner.identity = content.identity
            banner.failedAt = nil
            banner.sentAt = now
            if content.urgency != .low { banner.poppedAt = now }
        } else {
            // Shown again in full by the retry.
            banner.sent = nil
            banner.failedAt = now
        }
        banners[key] = banner
        return next(key: key, now: now)
    }

    /// The server did not answer the show of `content` for banner `key` in
    /// time (it hangs). It may still carry it out once it runs again, so
    /// nothing goes until its late answer (`answeredLate`), or `unansweredWait`
    /// after the server answers something else: a show sent now would be queued
    /// behind it, a second notification that rings again.
    public mutating func showTimedOut(key: String, content: NotificationContent, now: Double) -> [Action] {
        guard var banner = banners[key] else { return [] }
        banner.underWay = nil
        banner.sent = nil
        banner.unanswered = content
        banner.answeredSince = nil
        banners[key] = banner
        return []
    }

    /// The server answered the timed-out show of `content` for banner `key`
    /// late: with the notification's `id`, or nil for an error. The banner
    /// takes that notification, then its latest content goes in place; one
    /// that has closed or moved on since has it closed.
    public mutating func answeredLate(key: String, content: NotificationContent, id: UInt32?, now: Double)
        -> [Action]
    {
        serverAnswered(now: now)
        guard var banner = banners[key], banner.unanswered == content else {
            return id.map { [.closeStray(id: $0)] } ?? []
        }
        banner.unanswered = nil
        banner.answeredSince = nil
        banners[key] = banner
        guard let id else { return shown(key: key, content: content, succeeded: false, now: now) }
        return [.adopt(key: key, id: id)] + shown(key: key, content: content, succeeded: true, now: now)
    }

    /// The server answered a call: the banners whose shows it left unanswered
    /// start their wait for the late answer (any still to come is close behind).
    private mutating func serverAnswered(now: Double) {
        for key in banners.keys where banners[key]?.unanswered != nil && banners[key]?.answeredSince == nil {
            banners[key]?.answeredSince = now
        }
    }

    /// The server closed banner `key`'s notification `id` with `reason`
    /// (1 expired, 2 dismissed, ...): the banner is forgotten. An expired
    /// one is kept where the server `keepsExpiredIds`: the banner's next
    /// show replaces it instead of making another.
    /// Only a banner that was to stay up (a ringing or live call) is kept: an
    /// expired ended or missed call is that call's last word in the list, which
    /// the session's next call must not replace.
    /// Returns whether it was kept: the server lists it, and only the banner's
    /// next show, left to the server to expire, replaces that entry (the
    /// posting machine then shows even an `immediate` end).
    public mutating func closedByServer(key: String, reason: Int = 0, id: UInt32 = 0) -> Bool {
        guard let banner = banners.removeValue(forKey: key) else { return false }
        guard keepsExpiredIds, reason == 1, id != 0, (banner.sent ?? banner.desired).resident else { return false }
        expired.removeAll { $0.key == key }
        expired.append(Expired(key: key, identity: banner.identity ?? "", id: id))
        if expired.count > Self.keptExpiredLimit { expired.removeFirst() }
        return true
    }

    /// A server owns the name: `newServer` when it is not the one that has
    /// the banners (a restart), which then get new notifications.
    /// `keepsExpiredIds` and `popupLifetime`: the server's
    /// `NotificationServerRules.keepsExpiredIds` and `keptUpPopupLifetime`.
    public mutating func serverAppeared(
        newServer: Bool, popSettleInterval: Double, keepsExpiredIds: Bool = false, popupLifetime: Double? = nil,
        now: Double
    ) -> [Action] {
        serverAvailable = true
        self.popSettleInterval = popSettleInterval
        self.keepsExpiredIds = keepsExpiredIds
        self.popupLifetime = popupLifetime
        if newServer { forgetServer() }
        return keys.flatMap { next(key: $0, now: now) }
    }

    /// No server owns the name: its notifications are gone with it.
    public mutating func serverVanished() {
        serverAvailable = false
        forgetServer()
    }

    /// When `wake` has held pops, retries or refreshes to carry out.
    public var nextWake: Double? {
        // Without a server nothing can be sent: a retry would wake at once, for ever.
        guard serverAvailable else { return nil }
        return banners.values.compactMap(wakeTime).min()
    }

    /// Carries out the held pops, retries and refreshes that are due.
    public mutating func wake(now: Double) -> [Action] {
        keys.flatMap { key -> [Action] in
            guard let time = banners[key].flatMap(wakeTime), time <= now else { return [] }
            return next(key: key, now: now)
        }
    }

    /// When `banner`'s held pop, retry or refresh is due.
    private func wakeTime(_ banner: Banner) -> Double? {
        [
            banner.heldUntil, banner.failedAt.map { $0 + Self.retryInterval },
            banner.answeredSince.map { $0 + Self.unansweredWait }, refreshTime(banner),
        ].compactMap { $0 }.min()
    }

    /// When a banner that is kept up (`NotificationContent.keptUp`: ringing;
    /// live with keep-on-screen) and that the server would take down after
    /// `popupLifetime` is shown again (nil: never, or a show is under way).
    /// Only those: each show slides in again (Budgie), and a live call, the
    /// "more calls" summary or an agent notice may go to the server's list
    /// after its popup.
    private func refreshTime(_ banner: Banner) -> Double? {
        guard let popupLifetime, banner.underWay == nil, let sent = banner.sent, sent.keptUp,
            let sentAt = banner.sentAt
        else { return nil }
        return sentAt + max(0, popupLifetime - Self.refreshMargin)
    }

    /// A banner new to the machine, in the notification the server expired for it, if one is kept.
    private mutating func newBanner(key: String, content: NotificationContent) -> Banner {
        var banner = Banner(desired: content)
        if let index = expired.firstIndex(where: { $0.key == key }) {
            let kept = expired.remove(at: index)
            banner.identity = kept.identity
            banner.replaces = kept.id
        }
        return banner
    }

    private mutating func forgetServer() {
        expired.removeAll()
        for key in banners.keys {
            banners[key]?.sent = nil
            banners[key]?.identity = nil
            banners[key]?.poppedAt = nil
            banners[key]?.heldUntil = nil
            banners[key]?.replaces = nil
            banners[key]?.unanswered = nil
            banners[key]?.answeredSince = nil
        }
    }

    /// The show banner `key` needs now, if any.
    private mutating func next(key: String, now: Double) -> [Action] {
        guard serverAvailable, var banner = banners[key], banner.underWay == nil else { return [] }
        if banner.unanswered != nil {
            // A hung server answers nothing: a second show would be a second notification.
            guard let answeredSince = banner.answeredSince, now >= answeredSince + Self.unansweredWait else {
                return []
            }
            // It answers others, not this: shown again, never its sound a second time (it may have rung).
            banner.unanswered = nil
            banner.answeredSince = nil
            banner.desired.silence()
        }
        if banner.sent == banner.desired, let refreshAt = refreshTime(banner), refreshAt <= now {
            // The same again so the server keeps it up: never its sound a second time.
            banner.desired.silence()
            banner.sent = nil
        }
        let content = banner.desired
        if banner.sent == content { return [] }
        if let failedAt = banner.failedAt, now < failedAt + Self.retryInterval { return [] }
        if popSettleInterval > 0, content.urgency == .normal, let poppedAt = banner.poppedAt,
            now < poppedAt + popSettleInterval
        {
            // GNOME 43 hides a banner updated at normal urgency during its slide-in.
            banner.heldUntil = poppedAt + popSettleInterval
            banners[key] = banner
            return []
        }
        banner.heldUntil = nil
        banner.underWay = content
        let newNotification = banner.identity == nil || banner.identity != content.identity
        // The expired notification is taken again once, and only by the same identity.
        let replaces = newNotification ? nil : banner.replaces
        banner.replaces = nil
        if replaces != nil {
            banner.repeatsOnce = true
            banner.listed = true
        }
        banners[key] = banner
        return [.show(key: key, content: content, newNotification: newNotification, replaces: replaces)]
    }
}
