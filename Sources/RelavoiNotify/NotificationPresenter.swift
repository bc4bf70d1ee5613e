import CGLib
import CNotify
import Dispatch
import FoundationEssentials
import RelavoiCore
import RelavoiGLib

/// Shows banners through libnotify on a thread of its own.
///
/// libnotify's calls are synchronous D-Bus round trips: a notification server
/// that hangs would stall whichever loop makes them for up to 25 s. So every
/// libnotify call happens here, on a presenter thread with its own GLib
/// context; callers only post the latest content per banner (`post`), which
/// coalesces while the server is slow, and hear back through `onEvent`.
///
/// A banner already on screen is updated without libnotify: an asynchronous
/// `Notify` with its id, at most one in flight per banner, the latest content
/// sent when it is answered. libnotify's synchronous show costs a temporary
/// main context per call; new notifications, closing, capabilities and the
/// server's signals stay with it. The quiet updates of a settled banner (its
/// per-second ticks) do not even wake this thread: `QuietUpdates` sends them
/// from the posting thread and reads their answers on GDBus's.
public final class NotificationPresenter: @unchecked Sendable {
    public enum Event: Sendable, Equatable {
        /// The server closed a banner: 1 expired, 2 dismissed by the user, 3 closed by us, 4 other.
        case closed(key: String, reason: Int)
        /// Whether a notification server owns its bus name (at start, after a
        /// restart, when it goes away). Comes before the server is asked anything.
        case availability(Bool)
        /// What the server is and can do; `restarted` when it is a new server
        /// (a new owner of the bus name) that has none of our banners.
        case profile(NotificationServerProfile, restarted: Bool)
        /// The user clicked banner `key` (`action` is `default`) or one of its
        /// buttons (the button's id), with the server's activation token when it sent one.
        case activated(key: String, action: String, activationToken: String?)
    }

    /// Whose banners these are (app name, desktop entry, app icon).
    private let owner: BannerOwner
    private let onEvent: @Sendable (Event) -> Void
    private let icons: IconLocator
    /// The settled banners' quiet lanes (their own lock; taken inside `lock`, never around it).
    private let quiet = QuietUpdates()

    // Mailbox, shared with posting threads under `lock`.
    private let lock = Lock()
    private var mailbox: [String: NotificationContent?] = [:]
    private var drainScheduled = false
    private var available: Bool? = nil
    private var started = false
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    private let finished = DispatchSemaphore(value: 0)

    // Presenter-thread state only.
    private var shown: [String: ShownBanner] = [:]
    private var retryTimer: GLibTimer?
    /// The bus-name watch on org.freedesktop.Notifications (0: none).
    private var serverWatch: guint = 0
    private var serverOwner: String?
    private var lastOwner: String?
    private var profile = NotificationServerProfile.unknown
    /// Icon name → what to send; looked up once, not on every tick.
    private var resolvedIcons: [String: String] = [:]
    /// The session bus (libnotify's connection too) for the updates.
    private var bus: OpaquePointer?
    /// Runs `drain` on the presenter thread when a post wakes it.
    private var drainSource: WakeSource?
    /// Updates sent and not answered yet (cancelled ones included).
    private var updatesInFlight = 0
    /// Cancels the updates still under way when the thread ends.
    private var updatesCancellable: UnsafeMutablePointer<GCancellable>?

    private final class ShownBanner {
        var desired: NotificationContent
        var sent: NotificationContent?
        var notification: UnsafeMutablePointer<NotifyNotification>? {
            didSet { if notification != oldValue { generation &+= 1 } }
        }
        /// Which notification `notification` is (a pointer can be reused).
        private(set) var generation: UInt64 = 0
        /// The content identity `notification` was made for.
        var identity = ""
        /// When the server last popped it up (monotonic µs).
        var poppedAt: gint64?
        /// A pop held back until the previous one has settled.
        var holdTimer: GLibTimer?
        /// The update sent without libnotify that is not answered yet (for
        /// the notification it names: a new phase's notification has none).
        var inFlight: UpdateTicket?
        /// Gives up on an update taken back from a lane, which has no call timeout.
        var inFlightTimer: GLibTimer?
        /// The server's id of `notification` (read once per show, not per tick).
        var id: UInt32 = 0
        init(desired: NotificationContent) { self.desired = desired }

        /// Whether `record` and `generation` name this banner's notification now
        /// (an update's ticket, a lane taken back).
        func isShowing(_ record: AnyObject?, generation: UInt64) -> Bool {
            record === self && generation == self.generation && notification != nil
        }

        /// The server has `content` now; anything but a quiet update popped it up.
        func shown(_ content: NotificationContent) {
            sent = content
            if content.urgency != .low { poppedAt = g_get_monotonic_time() }
        }
    }

    /// - Parameter onEvent: called on the presenter thread; hop to your own.
    public init(
        owner: BannerOwner = .relavoiAgent, icons: IconLocator = IconLocator(),
        onEvent: @escaping @Sendable (Event) -> Void
    ) {
        self.owner = owner
        self.icons = icons
        self.onEvent = onEvent
    }

    /// Starts the presenter thread. Idempotent while it runs; after `stop` has
    /// ended the thread, starts a new one.
    public func start() {
        let shouldStart = lock.withLock {
            defer { started = true }
            return !started
        }
        guard shouldStart else { return }
        let ready = DispatchSemaphore(value: 0)
        Threads.detach(name: "relavoi-presenter") { [self] in
            self.runThread(ready: ready)
        }
        ready.wait()
    }

    /// GLib sources attached to the presenter thread's context (diagnostics);
    /// nil before `start`.
    public var liveSourceCount: Int? {
        guard let context = retainedContext() else { return nil }
        defer { g_main_context_unref(context) }
        return ContextSources.liveCount(in: context)
    }

    /// The banners whose quiet updates go out without this thread now (diagnostics).
    package var quietLaneKeys: Set<String> { quiet.openKeys }

    /// The presenter thread's context with a reference of the caller's (to
    /// unref), or nil when no thread runs: the thread drops its own
    /// reference when it ends, so a bare pointer could dangle.
    private func retainedContext() -> OpaquePointer? {
        lock.withLock { context.map { g_main_context_ref($0) } }
    }

    /// Asks for `content` on banner `key`, or its closing when nil. Only the
    /// latest request per key is carried out.
    public func post(key: String, content: NotificationContent?) {
        if let content, quiet.offer(key: key, content: content) { return }
        let needsWake = lock.withLock {
            // Nothing goes out by the lane before the presenter has done this.
            quiet.shut(key: key)
            mailbox[key] = .some(content)
            defer { drainScheduled = true }
            return !drainScheduled
        }
        if needsWake { wake() }
    }

    /// Calls `done` (on the presenter thread) once everything posted before
    /// has been carried out.
    public func flush(_ done: @escaping @Sendable () -> Void) {
        guard let context = retainedContext() else { return done() }
        defer { g_main_context_unref(context) }
        invoke(on: context) { presenter in
            presenter.drain()
            done()
        }
    }

    /// Closes every banner and ends the thread, waiting at most `timeout`
    /// seconds (a hung server must not hold up the process's exit).
    /// The thread then releases its GLib context, the bus-name watch and
    /// libnotify (`runThread`).
    public func stop(timeout: Double) {
        guard let context = retainedContext() else { return }
        defer { g_main_context_unref(context) }
        invoke(on: context) { presenter in
            for key in presenter.shown.keys { presenter.apply(key: key, content: nil) }
            if let loop = presenter.loop { g_main_loop_quit(loop) }
        }
        _ = finished.wait(timeout: .now() + timeout)
    }

    // MARK: - Presenter thread

    private func runThread(ready: DispatchSemaphore) {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        let loop = g_main_loop_new(context, 0)
        lock.withLock {
            self.context = context
            self.loop = loop
        }
        // libnotify's D-Bus proxy is made by the first call, in the context
        // that is thread-default then: this one.
        notify_init(owner.appName)
        bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil)
        if let bus {
            quiet.attach(bus: bus) { [weak self] ticket, answer in self?.handOver(ticket, answer) }
        }
        updatesCancellable = g_cancellable_new()
        let drainSource = WakeSource(context: context!) { [unowned self] in self.drain() }
        lock.withLock {
            self.drainSource = drainSource
            // Posts made while no thread ran wait in the mailbox.
            if drainScheduled { drainSource.wake() }
        }
        watchServer()
        ready.signal()
        g_main_loop_run(loop)
        release(context: context!, loop: loop!)
        finished.signal()
    }

    /// After the loop has ended: gives back everything the thread took, so
    /// that nothing of a stopped presenter stays (its context, with every
    /// source on it, goes with the last reference).
    private func release(context: OpaquePointer, loop: OpaquePointer) {
        // From here on nothing is sent: posts that come late only fill the mailbox.
        lock.withLock { available = false }
        quiet.detach()
        // Updates still under way answer (cancelled) on this context, each
        // giving back its call's record; a lane's answers go nowhere now.
        g_cancellable_cancel(updatesCancellable)
        lock.withLock { drainSource?.cancel() }
        let deadline = g_get_monotonic_time() + 5_000_000
        while updatesInFlight > 0, g_get_monotonic_time() < deadline {
            if g_main_context_iteration(context, 0) == 0 { g_usleep(1000) }
        }
        if serverWatch != 0 { g_bus_unwatch_name(serverWatch) }
        serverWatch = 0
        retryTimer?.cancel()
        retryTimer = nil
        for banner in shown.values {
            banner.holdTimer?.cancel()
            banner.inFlightTimer?.cancel()
            if let notification = banner.notification { g_object_unref(UnsafeMutableRawPointer(notification)) }
        }
        shown.removeAll()
        notify_uninit()
        // GDBus hands the watch's and the proxy's destroy notifications to
        // this context as idle sources, each holding a reference: let them run.
        while g_main_context_iteration(context, 0) != 0 {}
        if let updatesCancellable { g_object_unref(UnsafeMutableRawPointer(updatesCancellable)) }
        updatesCancellable = nil
        if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
        bus = nil
        lock.withLock {
            self.context = nil
            self.loop = nil
            drainSource = nil
            started = false
        }
        g_main_context_pop_thread_default(context)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Under the lock: `release` drops the source under it before the context goes.
    private func wake() {
        lock.withLock { drainSource?.wake() }
    }

    private func drain() {
        let work = lock.withLock {
            defer {
                mailbox.removeAll()
                drainScheduled = false
            }
            return mailbox
        }
        for (key, content) in work.sorted(by: { $0.key < $1.key }) {
            apply(key: key, content: content)
        }
    }

    private func apply(key: String, content: NotificationContent?) {
        if let banner = shown[key] { reclaimLane(key: key, banner: banner) }
        guard let content else {
            guard let banner = shown.removeValue(forKey: key) else { return }
            banner.inFlightTimer?.cancel()
            if let notification = banner.notification {
                var error: UnsafeMutablePointer<GError>?
                notify_notification_close(notification, &error)
                logFailure(error, doing: "close banner")
                g_object_unref(UnsafeMutableRawPointer(notification))
            }
            return
        }
        let banner = shown[key] ?? ShownBanner(desired: content)
        shown[key] = banner
        var merged = content
        if banner.holdTimer?.isActive == true, banner.desired.urgency.rawValue > merged.urgency.rawValue {
            // A tick must not cancel a pop that is waiting its turn.
            merged.urgency = banner.desired.urgency
        }
        banner.desired = merged
        send(key: key, banner: banner)
    }

    /// Brings the server up to the banner's desired content, then lets its
    /// quiet updates go by the lane if it is settled.
    private func send(key: String, banner: ShownBanner) {
        reclaimLane(key: key, banner: banner)
        bringUpToDate(key: key, banner: banner)
        openLane(key: key, banner: banner)
    }

    /// Identical content is never sent twice (KDE rejects it within a second;
    /// others would re-pop).
    private func bringUpToDate(key: String, banner: ShownBanner) {
        let content = banner.desired
        if banner.sent == content, banner.notification != nil { return }
        if lock.withLock({ available }) != true { return }  // sent when a server appears
        if holdPop(key: key, banner: banner) { return }
        let iconName = owner.iconName(for: content)
        let icon = resolvedIcons[iconName] ?? icons.resolve(iconName)
        resolvedIcons[iconName] = icon
        if let previous = banner.notification, banner.identity != content.identity {
            // A new phase that needs a notification of its own: the old one
            // closes (its closed signal no longer matches the banner, so it is
            // not taken for the banner going away).
            var error: UnsafeMutablePointer<GError>?
            notify_notification_close(previous, &error)
            logFailure(error, doing: "close the previous phase's banner")
            g_object_unref(UnsafeMutableRawPointer(previous))
            banner.notification = nil
            banner.sent = nil
            banner.poppedAt = nil
        }
        if let existing = banner.notification, banner.sent != nil, bus != nil, serverOwner != nil {
            // An update: the answer to the one under way sends the latest.
            if banner.inFlight?.generation != banner.generation {
                sendUpdate(key: key, banner: banner, notification: existing, icon: icon)
            }
            return
        }
        let notification: UnsafeMutablePointer<NotifyNotification>
        if let existing = banner.notification {
            notification = existing
            notify_notification_update(notification, content.summary, content.body, icon)
        } else {
            notification = notify_notification_new(content.summary, content.body, icon)
            connectClosed(notification, key: key)
            banner.notification = notification
            banner.identity = content.identity
        }
        configure(notification, content, icon: icon)
        updateActions(notification, banner: banner, key: key)
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_show(notification, &error) != 0 {
            banner.id = UInt32(bitPattern: relavoi_notification_id(notification))
            banner.shown(content)
        } else {
            logFailure(error, doing: "show banner")
            banner.sent = nil
            scheduleRetry()
        }
    }

    /// Actions persist across updates in libnotify, which finds the click's
    /// handler by them: set only on a new notification or new labels, not per tick.
    private func updateActions(
        _ notification: UnsafeMutablePointer<NotifyNotification>, banner: ShownBanner, key: String
    ) {
        if let sent = banner.sent, sent.hasSameActions(as: banner.desired) { return }
        setActions(notification, banner.desired, key: key)
    }

    private func configure(
        _ notification: UnsafeMutablePointer<NotifyNotification>, _ content: NotificationContent, icon: String
    ) {
        // Hints persist across updates in libnotify: start from none each time.
        notify_notification_clear_hints(notification)
        notify_notification_set_app_name(notification, owner.appName)
        notify_notification_set_timeout(notification, content.expireTimeout)
        for hint in NotifyArguments.hints(for: content, owner: owner, icon: icon, rules: profile.rules) {
            notify_notification_set_hint(notification, hint.key, hint.value)
        }
    }

    /// Sends `banner`'s desired content to its notification on screen as an
    /// asynchronous `Notify` to the server's unique name (so an update meant
    /// for a server that went away never reaches its successor).
    private func sendUpdate(
        key: String, banner: ShownBanner, notification: UnsafeMutablePointer<NotifyNotification>, icon: String
    ) {
        guard let bus, let server = serverOwner else { return }
        let content = banner.desired
        updateActions(notification, banner: banner, key: key)
        let id = banner.id
        let arguments = NotifyArguments.update(
            id: id, content: content, owner: owner, icon: icon, rules: profile.rules)
        let ticket = UpdateTicket(
            key: key, banner: banner, generation: banner.generation, id: id, content: content, server: server)
        banner.inFlight = ticket
        updatesInFlight += 1
        let call = Unmanaged.passRetained(UpdateCall(presenter: self, ticket: ticket))
        let answered: GAsyncReadyCallback = { source, result, data in
            let call = Unmanaged<UpdateCall>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let answer: UpdateAnswer
            if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                let idValue = g_variant_get_child_value(reply, 0)!
                answer = .id(g_variant_get_uint32(idValue))
                g_variant_unref(idValue)
                g_variant_unref(reply)
            } else if g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue)) != 0 {
                g_error_free(error)
                answer = .cancelled
            } else {
                answer = .failed(GErrorText.take(error))
            }
            call.presenter.updatesInFlight -= 1
            call.presenter.updateAnswered(call.ticket, answer)
        }
        g_dbus_connection_call(
            bus, server, NotificationsBus.path, NotificationsBus.interface, "Notify", arguments,
            VariantType.notifyReply, G_DBUS_CALL_FLAGS_NO_AUTO_START, Self.updateTimeoutMilliseconds,
            updatesCancellable, answered, call.toOpaque())
    }

    /// The call timeout of an update: the lane's (GDBus's default), one source.
    private static let updateTimeoutMilliseconds = gint(QuietUpdateLane.answerTimeout * 1000)

    private func updateAnswered(_ update: UpdateTicket, _ answer: UpdateAnswer) {
        if let banner = update.banner as? ShownBanner, banner.inFlight === update {
            banner.inFlight = nil
            banner.inFlightTimer?.cancel()
        }
        let banner = shown[update.key]
        let current = banner?.isShowing(update.banner, generation: update.generation) == true
        switch answer {
        case .cancelled:
            return
        case .failed(let text):
            guard current, let banner else { return }
            Log.warning("notification server: could not update banner: \(text)")
            banner.sent = nil  // shown again in full by the retry
            scheduleRetry()
        case .id(let id):
            guard current, let banner, let notification = banner.notification else {
                // The banner closed (or moved to a new notification) while its
                // update was under way: whatever the server made of the update
                // (dunst makes a new notification under the old id, GNOME under a
                // new one) must not stay. Closing one already gone only errs.
                if shown[update.key]?.notification == nil || shown[update.key]?.id != id {
                    closeStray(id: id, on: update.server)
                }
                return
            }
            if id != update.id {
                // libnotify matches the server's signals by this id.
                relavoi_notification_set_id(notification, gint(bitPattern: id))
                banner.id = id
            }
            banner.shown(update.content)
            if banner.desired != update.content {
                send(key: update.key, banner: banner)
            } else {
                openLane(key: update.key, banner: banner)
            }
        }
    }

    // MARK: - Quiet lanes

    /// Lets `banner`'s quiet updates go by its lane when it is settled: the
    /// server has its desired content in its notification, nothing is under
    /// way or held, and no post for it waits in the mailbox.
    private func openLane(key: String, banner: ShownBanner) {
        guard let sent = banner.sent, sent == banner.desired, banner.notification != nil, banner.inFlight == nil,
            banner.holdTimer?.isActive != true, bus != nil, let server = serverOwner,
            let icon = resolvedIcons[owner.iconName(for: sent)]
        else { return }
        let target = QuietTarget(
            banner: banner, generation: banner.generation, id: banner.id, server: server, icon: icon, owner: owner,
            rules: profile.rules)
        lock.withLock {
            guard available == true, mailbox[key] == nil else { return }
            quiet.open(key: key, settledOn: sent, target: target)
        }
    }

    /// Takes `banner`'s lane back before the presenter looks at or changes
    /// it: what the lane sent and took in is the banner's, and an update
    /// still under way is its update in flight.
    private func reclaimLane(key: String, banner: ShownBanner) {
        guard let taken = quiet.reclaim(key: key),
            banner.isShowing(taken.target.banner, generation: taken.target.generation)
        else { return }
        banner.sent = taken.lane.acknowledged
        banner.desired = taken.lane.desired
        guard let ticket = taken.underWay, let sentAt = taken.lane.sentAt else { return }
        banner.inFlight = ticket
        let waited = GLibTimer.now() - sentAt
        banner.inFlightTimer = GLibTimer.once(after: max(0, QuietUpdateLane.answerTimeout - waited)) {
            [self] in
            guard banner.inFlight === ticket else { return }
            quiet.forget(ticket)
            updateAnswered(ticket, .failed("no answer in \(Int(QuietUpdateLane.answerTimeout)) s"))
        }
    }

    /// A lane's answer the lane does not settle itself (any thread).
    private func handOver(_ ticket: UpdateTicket, _ answer: UpdateAnswer) {
        guard let context = retainedContext() else { return }
        defer { g_main_context_unref(context) }
        invoke(on: context) { presenter in
            // Only the lane of the notification the update was for.
            if let banner = presenter.shown[ticket.key], banner.isShowing(ticket.banner, generation: ticket.generation)
            {
                presenter.reclaimLane(key: ticket.key, banner: banner)
            }
            presenter.updateAnswered(ticket, answer)
        }
    }

    private func closeStray(id: UInt32, on server: String) {
        if let bus { NotificationsBus.close(id: id, on: server, bus: bus) }
    }

    /// GNOME hides a banner that is updated at normal urgency while it is
    /// still sliding in (its hide timer does not exist yet). Such an update
    /// waits until the previous pop has settled; low and critical go at once.
    private func holdPop(key: String, banner: ShownBanner) -> Bool {
        let settle = profile.popSettleInterval
        guard settle > 0, banner.desired.urgency == .normal, let poppedAt = banner.poppedAt else { return false }
        let elapsed = Double(g_get_monotonic_time() - poppedAt) / 1_000_000
        guard elapsed < settle else { return false }
        if banner.holdTimer?.isActive != true {
            banner.holdTimer = GLibTimer.once(after: settle - elapsed) { [self] in
                if let current = shown[key], current === banner { send(key: key, banner: banner) }
            }
        }
        return true
    }

    /// A show that failed (timeout, no server) is tried again, with whatever
    /// content is latest by then.
    private func scheduleRetry() {
        guard retryTimer?.isActive != true else { return }
        retryTimer = GLibTimer.once(after: 1) { [self] in
            for (key, banner) in shown where banner.sent != banner.desired {
                send(key: key, banner: banner)
            }
        }
    }

    private func closed(_ notification: UnsafeMutablePointer<NotifyNotification>, key: String) {
        guard let banner = shown[key], banner.notification == notification else { return }
        reclaimLane(key: key, banner: banner)
        banner.inFlightTimer?.cancel()
        let reason = Int(notify_notification_get_closed_reason(notification))
        // libnotify never resets a closed reason: the next show needs a new object.
        banner.notification = nil
        banner.sent = nil
        g_object_unref(UnsafeMutableRawPointer(notification))
        shown[key] = nil
        onEvent(.closed(key: key, reason: reason))
    }

    private func activated(_ notification: UnsafeMutablePointer<NotifyNotification>, key: String, action: String) {
        guard let banner = shown[key], banner.notification == notification else { return }
        // libnotify 0.8 keeps the token of ActivationToken, which servers send just before ActionInvoked.
        let token = notify_notification_get_activation_token(notification).map { String(cString: $0) }
        onEvent(.activated(key: key, action: action, activationToken: token))
    }

    private func logFailure(_ error: UnsafeMutablePointer<GError>?, doing what: String) {
        guard let error else { return }
        let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        Log.warning("notification server: could not \(what): \(text)")
        g_error_free(error)
    }

    // MARK: - Server tracking

    private func watchServer() {
        let appeared: GBusNameAppearedCallback = { _, _, owner, data in
            let presenter = Unmanaged<NotificationPresenter>.fromOpaque(data!).takeUnretainedValue()
            presenter.serverAppeared(owner: owner.map { String(cString: $0) } ?? "")
        }
        let vanished: GBusNameVanishedCallback = { _, _, data in
            let presenter = Unmanaged<NotificationPresenter>.fromOpaque(data!).takeUnretainedValue()
            presenter.serverVanished()
        }
        // The watch holds the presenter unretained: the thread, which holds it,
        // removes the watch before it ends (`release`).
        serverWatch = g_bus_watch_name(
            G_BUS_TYPE_SESSION, NotificationsBus.name, G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
            appeared, vanished, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func serverAppeared(owner: String) {
        let restarted = lastOwner != nil && lastOwner != owner
        serverOwner = owner
        lastOwner = owner
        if restarted { forgetServerState() }
        lock.withLock { available = true }
        onEvent(.availability(true))
        profile = readProfile()
        Log.info(
            "notification server: \(profile.name) \(profile.version) (\(owner)), capabilities: \(profile.capabilities.sorted().joined(separator: ","))"
        )
        onEvent(.profile(profile, restarted: restarted))
        for (key, banner) in shown { send(key: key, banner: banner) }
    }

    private func serverVanished() {
        lock.withLock { available = false }
        if serverOwner != nil { Log.warning("notification server went away; banners return when one is back") }
        serverOwner = nil
        forgetServerState()
        onEvent(.availability(false))
    }

    /// The old server's ids mean nothing to a new one (and may collide): new
    /// objects, shown from id 0.
    private func forgetServerState() {
        for (key, banner) in shown {
            reclaimLane(key: key, banner: banner)
            if let notification = banner.notification { g_object_unref(UnsafeMutableRawPointer(notification)) }
            banner.notification = nil
            banner.sent = nil
            banner.poppedAt = nil
        }
    }

    private func readProfile() -> NotificationServerProfile {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        _ = notify_get_server_info(&name, &vendor, &version, nil)
        defer {
            g_free(name)
            g_free(vendor)
            g_free(version)
        }
        var capabilities: Set<String> = []
        let list = notify_get_server_caps()
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                capabilities.insert(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        g_list_free_full(list, g_free)
        return NotificationServerProfile(
            name: name.map { String(cString: $0) } ?? "unknown",
            vendor: vendor.map { String(cString: $0) } ?? "", version: version.map { String(cString: $0) } ?? "",
            capabilities: capabilities)
    }

    // MARK: - C plumbing

    private final class BannerSignalContext {
        let presenter: NotificationPresenter
        let key: String
        init(presenter: NotificationPresenter, key: String) {
            self.presenter = presenter
            self.key = key
        }
    }

    private func connectClosed(_ notification: UnsafeMutablePointer<NotifyNotification>, key: String) {
        let handler: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, UnsafeMutableRawPointer?) -> Void = {
            notification, data in
            let context = Unmanaged<BannerSignalContext>.fromOpaque(data!).takeUnretainedValue()
            context.presenter.closed(notification!, key: context.key)
        }
        let release: GClosureNotify = { data, _ in Unmanaged<BannerSignalContext>.fromOpaque(data!).release() }
        let context = Unmanaged.passRetained(BannerSignalContext(presenter: self, key: key)).toOpaque()
        g_signal_connect_data(
            UnsafeMutableRawPointer(notification), "closed", unsafeBitCast(handler, to: GCallback.self), context,
            release, GConnectFlags(0))
    }

    /// Actions persist across updates in libnotify, like hints: set afresh each time.
    private func setActions(
        _ notification: UnsafeMutablePointer<NotifyNotification>, _ content: NotificationContent, key: String
    ) {
        notify_notification_clear_actions(notification)
        let handler: NotifyActionCallback = { notification, action, data in
            let context = Unmanaged<BannerSignalContext>.fromOpaque(data!).takeUnretainedValue()
            context.presenter.activated(
                notification!, key: context.key, action: action.map { String(cString: $0) } ?? "")
        }
        let release: GFreeFunc = { data in Unmanaged<BannerSignalContext>.fromOpaque(data!).release() }
        let pairs = content.actionList
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            let context = Unmanaged.passRetained(BannerSignalContext(presenter: self, key: key)).toOpaque()
            notify_notification_add_action(notification, pairs[index], pairs[index + 1], handler, context, release)
        }
    }

    /// An update call under way: who hears its answer.
    private final class UpdateCall {
        let presenter: NotificationPresenter
        let ticket: UpdateTicket
        init(presenter: NotificationPresenter, ticket: UpdateTicket) {
            self.presenter = presenter
            self.ticket = ticket
        }
    }

    private final class Job {
        let presenter: NotificationPresenter
        let body: (NotificationPresenter) -> Void
        init(_ presenter: NotificationPresenter, _ body: @escaping (NotificationPresenter) -> Void) {
            self.presenter = presenter
            self.body = body
        }
    }

    /// Runs `body` on the presenter thread.
    private func invoke(on context: OpaquePointer, _ body: @escaping (NotificationPresenter) -> Void) {
        let job = Unmanaged.passRetained(Job(self, body)).toOpaque()
        let run: GSourceFunc = { data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue()
            job.body(job.presenter)
            return gboolean(0)
        }
        let release: GDestroyNotify = { data in Unmanaged<Job>.fromOpaque(data!).release() }
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, run, job, release)
    }
}
