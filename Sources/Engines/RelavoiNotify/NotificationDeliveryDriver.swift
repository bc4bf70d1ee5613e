import CGLib
import CNotify
import Dispatch
import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// Shows banners through libnotify on a thread of its own, which owns every
/// notification: first show, updates, closing, actions and the server's
/// signals all happen there.
///
/// libnotify's calls are synchronous D-Bus round trips: a notification server
/// that hangs would stall whichever loop makes them for up to 25 s. So they
/// are made here, on a delivery thread with its own GLib context; callers
/// only post the latest content per banner (`post`), which coalesces while
/// the server is slow, and hear back through `onEvent`. What to send when is
/// decided by `NotificationDeliveryMachine`.
public final class NotificationDeliveryDriver: @unchecked Sendable {
    public enum Event: Sendable, Equatable {
        /// The server closed a banner: 1 expired, 2 dismissed by the user, 3 closed by us, 4 other;
        /// `listed`: the server lists the expired notification, and the banner's next show takes
        /// its id (`NotificationDeliveryMachine.closedByServer`).
        case closed(key: String, reason: Int, listed: Bool)
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

    // Mailbox, shared with posting threads under `lock`.
    private let lock = Lock()
    private var mailbox: [String: NotificationContent?] = [:]
    private var drainScheduled = false
    private var started = false
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    /// Runs `drain` on the delivery thread when a post wakes it.
    private var drainSource: WakeSource?
    private let finished = DispatchSemaphore(value: 0)

    // Delivery-thread state only.
    private var delivery = NotificationDeliveryMachine()
    private var notifications: [String: BannerNotification] = [:]
    private var signals: NotificationSignals?
    /// Calls `delivery.wake` at its `nextWake`.
    private var wakeTimer: GLibTimer?
    private var wakeAt: Double?
    /// The bus-name watch on org.freedesktop.Notifications (0: none).
    private var serverWatch: guint = 0
    private var lastOwner: String?
    private var profile = NotificationServerProfile.unknown
    /// Icon name → what to send; looked up once, not on every tick.
    private var resolvedIcons: [String: String] = [:]
    /// Hears the answers to shows the server did not answer in time.
    private var lateAnswers: LateNotifyAnswers?
    /// Those shows by their call's serial: the banner, its content, the id the
    /// call replaced (0: none) and when it went unanswered.
    private var unanswered: [UInt32: (key: String, content: NotificationContent, replaced: UInt32, at: Double)] = [:]

    /// - Parameter onEvent: called on the delivery thread; hop to your own.
    public init(
        owner: BannerOwner = .relavoiAgent, icons: IconLocator = IconLocator(),
        onEvent: @escaping @Sendable (Event) -> Void
    ) {
        self.owner = owner
        self.icons = icons
        self.onEvent = onEvent
    }

    /// Starts the delivery thread. Idempotent while it runs; after `stop` has
    /// ended the thread, starts a new one.
    public func start() {
        let shouldStart = lock.withLock {
            defer { started = true }
            return !started
        }
        guard shouldStart else { return }
        let ready = DispatchSemaphore(value: 0)
        Threads.detach(name: "relavoi-delivery") { [self] in
            self.runThread(ready: ready)
        }
        ready.wait()
    }

    /// GLib sources attached to the delivery thread's context (diagnostics);
    /// nil before `start`.
    public var liveSourceCount: Int? {
        guard let context = retainedContext() else { return nil }
        defer { g_main_context_unref(context) }
        return ContextSources.liveCount(in: context)
    }

    /// The delivery thread's context with a reference of the caller's (to
    /// unref), or nil when no thread runs: the thread drops its own
    /// reference when it ends, so a bare pointer could dangle.
    private func retainedContext() -> OpaquePointer? {
        lock.withLock { context.map { g_main_context_ref($0) } }
    }

    /// Asks for `content` on banner `key`, or its closing when nil. Only the
    /// latest request per key is carried out.
    public func post(key: String, content: NotificationContent?) {
        let source = lock.withLock {
            mailbox[key] = .some(content)
            defer { drainScheduled = true }
            return drainScheduled ? nil : drainSource
        }
        // Woken after the lock is given back: a thread woken under it would
        // at once sleep again on it, a second wake-up for each post.
        source?.wake()
    }

    /// Calls `done` (on the delivery thread) once everything posted before
    /// has been carried out.
    public func flush(_ done: @escaping @Sendable () -> Void) {
        guard let context = retainedContext() else { return done() }
        defer { g_main_context_unref(context) }
        invoke(on: context) { driver in
            driver.drain()
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
        invoke(on: context) { driver in
            for key in driver.delivery.keys { driver.apply(key: key, content: nil) }
            if let loop = driver.loop { g_main_loop_quit(loop) }
        }
        _ = finished.wait(timeout: .now() + timeout)
    }

    // MARK: - Delivery thread

    private func runThread(ready: DispatchSemaphore) {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        let loop = g_main_loop_new(context, 0)
        // libnotify's D-Bus proxy is made by the first call, in the context
        // that is thread-default then: this one.
        notify_init(owner.appName)
        lateAnswers = LateNotifyAnswers(context: context!) { [weak self] serial, id in
            self?.answeredLate(serial: serial, id: id)
        }
        signals = NotificationSignals(
            closed: { [unowned self] notification, key in closed(notification, key: key) },
            activated: { [unowned self] notification, key, action in
                activated(notification, key: key, action: action)
            })
        let drainSource = WakeSource(context: context!) { [unowned self] in self.drain() }
        lock.withLock {
            self.context = context
            self.loop = loop
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
    /// that nothing of a stopped driver stays (its context, with every
    /// source on it, goes with the last reference).
    private func release(context: OpaquePointer, loop: OpaquePointer) {
        lock.withLock { drainSource?.cancel() }
        if serverWatch != 0 { g_bus_unwatch_name(serverWatch) }
        serverWatch = 0
        wakeTimer?.cancel()
        wakeTimer = nil
        wakeAt = nil
        notifications.removeAll()
        delivery = NotificationDeliveryMachine()
        lateAnswers?.close()
        // Released by GDBus: at once, or (when its worker was running the filter) a moment
        // later through an idle source on this context, which holds a reference to it.
        weak let closedFilter = lateAnswers
        lateAnswers = nil
        unanswered.removeAll()
        signals = nil
        notify_uninit()
        // GDBus hands the watch's and the proxy's destroy notifications to
        // this context as idle sources, each holding a reference: let them run.
        while g_main_context_iteration(context, 0) != 0 {}
        while closedFilter != nil { g_main_context_iteration(context, 1) }
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
        perform(delivery.post(key: key, content: content, now: GLibTimer.now()))
    }

    /// Carries out the machine's actions, and what each show's outcome leads to.
    private func perform(_ actions: [NotificationDeliveryMachine.Action]) {
        var queue = actions[...]
        while let action = queue.popFirst() {
            switch action {
            case .show(let key, let content, let newNotification, let replaces):
                let outcome = show(key: key, content: content, newNotification: newNotification, replaces: replaces)
                let now = GLibTimer.now()
                if outcome == .timedOut, awaitLateAnswer(key: key, content: content, now: now) {
                    queue.append(contentsOf: delivery.showTimedOut(key: key, content: content, now: now))
                } else {
                    queue.append(
                        contentsOf: delivery.shown(key: key, content: content, succeeded: outcome == .shown, now: now))
                }
            case .close(let key):
                notifications.removeValue(forKey: key)?.close()
            case .adopt(let key, let id):
                notifications[key]?.adopt(id: id)
            case .closeStray(let id):
                // Never one a banner shows now.
                guard !notifications.values.contains(where: { $0.id == id }) else { break }
                BannerNotification.close(id: id)
            }
        }
        scheduleWake()
    }

    private func show(key: String, content: NotificationContent, newNotification: Bool, replaces: UInt32?)
        -> BannerNotification.Outcome
    {
        guard let signals else { return .failed }
        let iconName = owner.iconName(for: content)
        let icon = resolvedIcons[iconName] ?? icons.resolve(iconName)
        resolvedIcons[iconName] = icon
        if newNotification || notifications[key] == nil {
            // A new phase that needs a notification of its own: the old one
            // closes (its closed signal no longer matches the banner, so it is
            // not taken for the banner going away).
            notifications.removeValue(forKey: key)?.close()
            notifications[key] = BannerNotification(key: key, signals: signals, id: replaces)
        }
        return notifications[key]!.show(content, icon: icon, owner: owner, rules: profile.rules)
    }

    /// After a show the server did not answer in time: awaits the call's late
    /// answer. False when the call cannot be told (then it counts as failed).
    private func awaitLateAnswer(key: String, content: NotificationContent, now: Double) -> Bool {
        guard let serial = lateAnswers?.awaitLastCall() else {
            Log.warning("notification server: no answer to a banner's show in time")
            return false
        }
        // Every one is kept, or the notification its late answer makes would stay beside the
        // banner: each held this thread 25 s, and all go when the server goes or restarts.
        unanswered[serial] = (key, content, notifications[key]?.id ?? 0, now)
        Log.warning(
            "notification server: no answer to a banner's show in time (is it hung?); the banner waits for its late answer"
        )
        return true
    }

    /// The server answered an unanswered show late: it runs again.
    private func answeredLate(serial: UInt32, id: UInt32?) {
        guard let show = unanswered.removeValue(forKey: serial) else { return }
        let now = GLibTimer.now()
        Log.message(
            "notification server answers again (a banner's show \(id == nil ? "refused" : "carried out") \(Int(now - show.at)) s after it went unanswered); banners catch up"
        )
        // An update in place answered for the same notification: closed with its banner, if it closed.
        let actions = delivery.answeredLate(key: show.key, content: show.content, id: id, now: now)
        perform(actions.filter { $0 != .closeStray(id: show.replaced) })
    }

    /// Keeps one timer, at the machine's next held pop or retry.
    private func scheduleWake() {
        let next = delivery.nextWake
        guard next != wakeAt else { return }
        wakeTimer?.cancel()
        wakeTimer = nil
        wakeAt = next
        guard let next else { return }
        wakeTimer = GLibTimer.once(after: max(0, next - GLibTimer.now())) { [unowned self] in
            wakeAt = nil
            perform(delivery.wake(now: GLibTimer.now()))
        }
    }

    private func closed(_ notification: UnsafeMutablePointer<NotifyNotification>, key: String) {
        guard let banner = notifications[key], banner.pointer == notification else { return }
        notifications[key] = nil
        let reason = Int(notify_notification_get_closed_reason(notification))
        // libnotify forgets the id only once this signal is handled.
        let listed = delivery.closedByServer(key: key, reason: reason, id: banner.id)
        // Only after a dismissal: Plasma keeps an expired popup in its
        // history, and a close would take it from there.
        if reason == 2, banner.wasUpdated { banner.closeAfterDismissal() }
        onEvent(.closed(key: key, reason: reason, listed: listed))
    }

    private func activated(_ notification: UnsafeMutablePointer<NotifyNotification>, key: String, action: String) {
        guard let banner = notifications[key], banner.pointer == notification else { return }
        // libnotify 0.8 keeps the token of ActivationToken, which servers send just before ActionInvoked.
        let token = notify_notification_get_activation_token(notification).map { String(cString: $0) }
        onEvent(.activated(key: key, action: action, activationToken: token))
    }

    // MARK: - Server tracking

    private func watchServer() {
        let appeared: GBusNameAppearedCallback = { _, _, owner, data in
            let driver = Unmanaged<NotificationDeliveryDriver>.fromOpaque(data!).takeUnretainedValue()
            driver.serverAppeared(owner: owner.map { String(cString: $0) } ?? "")
        }
        let vanished: GBusNameVanishedCallback = { _, _, data in
            let driver = Unmanaged<NotificationDeliveryDriver>.fromOpaque(data!).takeUnretainedValue()
            driver.serverVanished()
        }
        // The watch holds the delivery driver unretained: the thread, which holds it,
        // removes the watch before it ends (`release`).
        serverWatch = g_bus_watch_name(
            G_BUS_TYPE_SESSION, NotificationsBus.name, G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
            appeared, vanished, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func serverAppeared(owner: String) {
        let restarted = lastOwner != nil && lastOwner != owner
        lastOwner = owner
        // The old server's ids mean nothing to a new one (and may collide).
        if restarted {
            notifications.removeAll()
            unanswered.removeAll()
            lateAnswers?.forget()
        }
        onEvent(.availability(true))
        profile = NotificationServerProfile.read()
        Log.info(
            "notification server: \(profile.name) \(profile.version) (\(owner)), capabilities: \(profile.capabilities.sorted().joined(separator: ","))"
        )
        onEvent(.profile(profile, restarted: restarted))
        perform(
            delivery.serverAppeared(
                newServer: restarted, popSettleInterval: profile.popSettleInterval,
                keepsExpiredIds: profile.rules.keepsExpiredIds,
                popupLifetime: profile.rules.keptUpPopupLifetime, now: GLibTimer.now()))
    }

    private func serverVanished() {
        if delivery.serverAvailable {
            Log.warning("notification server went away; banners return when one is back")
        }
        notifications.removeAll()
        unanswered.removeAll()
        lateAnswers?.forget()
        delivery.serverVanished()
        scheduleWake()
        onEvent(.availability(false))
    }

    // MARK: - C plumbing

    private final class Job {
        let driver: NotificationDeliveryDriver
        let body: (NotificationDeliveryDriver) -> Void
        init(_ driver: NotificationDeliveryDriver, _ body: @escaping (NotificationDeliveryDriver) -> Void) {
            self.driver = driver
            self.body = body
        }
    }

    /// Runs `body` on the delivery thread.
    private func invoke(on context: OpaquePointer, _ body: @escaping (NotificationDeliveryDriver) -> Void) {
        let job = Unmanaged.passRetained(Job(self, body)).toOpaque()
        let run: GSourceFunc = { data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue()
            job.body(job.driver)
            return gboolean(0)
        }
        let release: GDestroyNotify = { data in Unmanaged<Job>.fromOpaque(data!).release() }
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, run, job, release)
    }
}
