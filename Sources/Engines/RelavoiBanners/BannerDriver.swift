import Dispatch
import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiNotify

/// Runs every banner of the process: the pure `BannerPostingMachine` for the
/// banners and what is posted of them, `NoticeMachine` for the agent's notices,
/// one timer aligned to the second while anything shows the seconds (none while
/// nothing ticks or waits), the renderer for the current server, and the
/// delivery thread for libnotify (`NotificationDeliveryDriver`).
@MainActor
package final class BannerDriver {
    /// The process's banners, with the default settings until its owner hands in its own
    /// (the agent from its settings, an app from the person's agent.conf).
    package static let shared = BannerDriver()

    /// Called once when a banner is gone: `byUser` when the person dismissed
    /// it (on the server or from the panel item), false when the code closed it.
    package typealias RemovalHandler = @MainActor (_ byUser: Bool) -> Void
    /// Called when the user clicked a banner, with the server's activation token.
    package typealias ActivationHandler = @MainActor (_ activationToken: String?) -> Void
    /// What became of a notice: a button's id, or nil when it closed unanswered.
    package typealias NoticeHandler = @MainActor (_ button: String?) -> Void

    package var settings: BannerSettings {
        didSet { serverViewChanged() }
    }
    /// The banners' words (English unless the app hands in translated ones).
    package var phrases: BannerPhrases {
        get { renderer.phrases }
        set {
            renderer.phrases = newValue
            rerenderAll()
        }
    }
    /// A panel shows the calls (a panel widget's `ShowingCalls`, or the GNOME
    /// extension's name owned): on servers whose rules say so the live call
    /// leaves the screen at the answer, or stops ticking.
    package var panelShowsCalls: Bool {
        get { renderer.panelShowsCalls }
        set {
            guard newValue != renderer.panelShowsCalls else { return }
            renderer.panelShowsCalls = newValue
            serverViewChanged()
        }
    }
    /// The wall clock (the banners and `LiveActivityManager` read one clock).
    package let now: @MainActor () -> Date = { Date() }

    private var machine: BannerPostingMachine
    private var notices = NoticeMachine()
    private var renderer = BannerRenderer(profile: .unknown)
    private var removalHandlers: [String: RemovalHandler] = [:]
    /// Banners a click opens; only they get the `default` action.
    private var activationHandlers: [String: ActivationHandler] = [:]
    private lazy var timer = DeadlineTimer(slack: 0.005) { [weak self] in self?.tick() }
    private var delivery: NotificationDeliveryDriver?
    private var doNotDisturb: DoNotDisturbWatch?
    private var availabilityWaiters: [CheckedContinuation<Bool, Never>] = []
    private var available: Bool?
    private var nextKey = 0
    /// Who hears what became of each notice (`showNotice`).
    private var noticeHandlers: [String: NoticeHandler] = [:]
    /// Called after each tick of the timer, each with whether it shows the live
    /// calls' seconds now (see `addTickObserver`).
    private var tickObservers: [(wantsSeconds: @MainActor () -> Bool, observer: @MainActor () -> Void)] = []

    init(settings: BannerSettings = BannerSettings()) {
        self.settings = settings
        Self.follow(settings, in: &renderer)
        machine = BannerPostingMachine(serverView: renderer.serverView)
    }

    /// The renderer's view of the server.
    var serverProfile: NotificationServerProfile { renderer.profile }
    /// Whether the delivery driver last saw a notification server own its name (`ctl diagnostics`).
    package var isServerAvailable: Bool { available == true }
    /// Whether the banners' timer is set: never while nothing ticks or waits (`ctl diagnostics`).
    package var isTimerRunning: Bool { timer.isActive }
    package var activeKeys: [String] { machine.banners.keys.sorted() }
    package func banner(_ key: String) -> Banner? { machine.banners[key] }

    /// Runs `observer` after each tick of the banners' timer (just past each
    /// second while a call is live and `wantsSeconds` or a banner shows them,
    /// and at each close time): the panel item's timer moves with the banners'
    /// instead of keeping a second 1 Hz timer. Call `secondsWantedChanged` when
    /// what `wantsSeconds` says changes.
    package func addTickObserver(
        wantsSeconds: @escaping @MainActor () -> Bool, _ observer: @escaping @MainActor () -> Void
    ) {
        tickObservers.append((wantsSeconds, observer))
        reschedule()
    }

    /// What a tick observer's `wantsSeconds` says may have changed.
    package func secondsWantedChanged() {
        reschedule()
    }

    /// A key no other banner uses.
    package func makeKey(prefix: String) -> String {
        nextKey += 1
        return "\(prefix)#\(nextKey)"
    }

    /// Whether banners can be shown: enabled in the settings and a
    /// notification server owns its bus name (or can be activated).
    package func bannersAvailable() async -> Bool {
        guard settings.enabled else { return false }
        startDelivery()
        if let available { return available }
        return await withCheckedContinuation { availabilityWaiters.append($0) }
    }

    // MARK: - Banner lifecycle

    /// - Parameter rings: a new call starts ringing: its first ringing
    ///   `Notify` names the ringing sound, no later one does.
    package func show(_ banner: Banner, key: String, rings: Bool = false, onRemoved: RemovalHandler? = nil) {
        startDelivery()
        if let onRemoved { removalHandlers[key] = onRemoved }
        perform(machine.show(banner, key: key, rings: rings, now: now()))
    }

    /// Shows a banner straight in its ended state, never live: a call that
    /// ended before its banner was ever shown.
    package func showEnded(
        _ banner: Banner, key: String, policy: DismissPolicy, durationSeconds: Int?, onRemoved: RemovalHandler? = nil
    ) {
        startDelivery()
        if let onRemoved { removalHandlers[key] = onRemoved }
        perform(machine.showEnded(banner, key: key, policy: policy, durationSeconds: durationSeconds, now: now()))
    }

    /// What a click on banner `key` does, for as long as the banner lives
    /// (set it before `show`, so the first content already has the action).
    package func onActivated(key: String, _ handler: @escaping ActivationHandler) {
        activationHandlers[key] = handler
    }

    package func update(key: String, elapsedSeconds: Int?, verified: Bool, label: String) {
        perform(machine.update(key: key, elapsedSeconds: elapsedSeconds, verified: verified, label: label, now: now()))
    }

    package func end(key: String, policy: DismissPolicy, durationSeconds: Int? = nil) {
        perform(machine.end(key: key, policy: policy, durationSeconds: durationSeconds, now: now()))
    }

    package func close(key: String) {
        perform(machine.close(key: key))
    }

    /// Closes a banner as the user would from the tray (its removal handler hears `byUser`).
    package func dismiss(key: String) {
        perform(machine.dismiss(key: key))
    }

    /// After resume (or any jump of the wall clock): every banner as of now,
    /// and the timer re-armed for the next second. The timer runs on the
    /// monotonic clock, which stands still during suspend.
    package func clockJumped() {
        perform(machine.tick(now: now()))
    }

    /// Closes every banner now.
    package func closeAll() {
        for key in machine.banners.keys.sorted() { perform(machine.close(key: key)) }
        for key in notices.notices.keys.sorted() { closeNotice(key: key) }
    }

    // MARK: - Notices

    /// Shows `notice` under `key`, or updates the one shown there in place.
    /// `onDone` hears once what became of it: the button pressed, or nil when
    /// it was closed unanswered (by the person or the server).
    package func showNotice(_ notice: AgentNotice, key: String, onDone: NoticeHandler? = nil) {
        guard settings.enabled else { return }
        startDelivery()
        if let onDone { noticeHandlers[key] = onDone }
        carry(notices.show(notice, key: key))
    }

    /// Closes the notice under `key` (its handler is not called).
    package func closeNotice(key: String) {
        noticeHandlers[key] = nil
        carry(notices.close(key: key))
    }

    /// GLib sources on the delivery thread's context (diagnostics); nil before `prepare`.
    package var deliverySourceCount: Int? { delivery?.liveSourceCount }

    /// Returns once the delivery driver has carried out everything asked so far.
    package func flush() async {
        guard let delivery else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            delivery.flush { done.resume() }
        }
    }

    /// Closes every banner (at exit) and stops the delivery driver, waiting at most
    /// `timeout` seconds for a slow server.
    package func shutdown(timeout: Double = 2) {
        closeAll()
        delivery?.stop(timeout: timeout)
        delivery = nil
    }

    // MARK: - Carrying out the machine's actions

    private func perform(_ actions: [BannerPostingMachine.Action]) {
        carry(actions)
        reschedule()
    }

    private func carry(_ actions: [BannerPostingMachine.Action]) {
        for action in actions {
            switch action {
            case .present(let key, let snapshot, let previous, let rings):
                let opens = activationHandlers[key] != nil
                let content = renderer.render(snapshot, previous: previous, rings: rings, opens: opens)
                delivery?.post(key: key, content: content)
            case .close(let key):
                delivery?.post(key: key, content: nil)
            case .removed(let key, let byUser):
                activationHandlers[key] = nil
                removalHandlers.removeValue(forKey: key)?(byUser)
            case .keptOffScreen(let key):
                Log.debug("banner: the notification of \(key) expired off screen; the call is kept")
            }
        }
    }

    private func carry(_ actions: [NoticeMachine.Action]) {
        for action in actions {
            switch action {
            case .present(let key, let notice):
                delivery?.post(key: key, content: renderer.render(notice))
            case .close(let key):
                delivery?.post(key: key, content: nil)
            case .ended(let key, let button):
                noticeHandlers.removeValue(forKey: key)?(button)
            }
        }
    }

    /// The server's profile, the settings or the panel changed: the renderer
    /// follows, the machine takes its view of the server, and every banner and
    /// notice is sent again.
    private func serverViewChanged() {
        Self.follow(settings, in: &renderer)
        resend(machine.setServerView(renderer.serverView, now: now()))
    }

    /// Re-sends every banner and notice after the words changed.
    private func rerenderAll() {
        resend(machine.rerender(now: now()))
    }

    private func resend(_ banners: [BannerPostingMachine.Action]) {
        carry(banners)
        carry(notices.rerender())
        // Whether the live banners show their seconds may have changed with the view.
        reschedule()
    }

    /// The renderer takes what the settings say of the banners.
    private static func follow(_ settings: BannerSettings, in renderer: inout BannerRenderer) {
        renderer.keepOnScreen = settings.keepOnScreen
        renderer.ringThroughDoNotDisturb = settings.ringThroughDoNotDisturb
    }

    /// One timer for all banners, set to the next moment anything changes:
    /// a few ms past the second, so the elapsed seconds have moved on.
    private func reschedule() {
        let time = now()
        let wanted = tickObservers.contains { $0.wantsSeconds() }
        timer.schedule(at: machine.nextWake(after: time, secondsWanted: wanted), now: time)
    }

    private func tick() {
        perform(machine.tick(now: now()))
        for tickObserver in tickObservers { tickObserver.observer() }
    }

    // MARK: - Delivery thread

    /// Starts talking to the notification server now rather than at the
    /// first banner (an agent does this at start-up, so Do Not Disturb and
    /// the server's capabilities are known before the first call).
    package func prepare() {
        guard settings.enabled else { return }
        startDelivery()
    }

    private func startDelivery() {
        guard delivery == nil else { return }
        MainLoop.installDispatchBridge()
        // This driver hears its own delivery (not `.shared`): a driver made
        // for a test or a host gets the closes and clicks of its banners.
        let delivery = NotificationDeliveryDriver(owner: Self.bannerOwner()) { [weak self] event in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.handle(event) }
            }
        }
        self.delivery = delivery
        delivery.start()
        let watch = DoNotDisturbWatch { [weak self] isOn in
            guard let self else { return }
            self.renderer.doNotDisturb = isOn
            // Ringing banners change (sound, urgency); ticking ones keep going quietly.
            // The server view follows (`BannerRenderer.yieldsToNewerRinging`).
            self.serverViewChanged()
        }
        doNotDisturb = watch
        watch.start()
    }

    private func handle(_ event: NotificationDeliveryDriver.Event) {
        switch event {
        case .availability(let isAvailable):
            available = isAvailable
            let waiters = availabilityWaiters
            availabilityWaiters.removeAll()
            for waiter in waiters { waiter.resume(returning: isAvailable) }
        case .profile(let profile, let restarted):
            machine.serverAppeared(restarted: restarted)
            notices.serverAppeared()
            renderer.profile = profile
            doNotDisturb?.serverAppeared(following: profile.rules.doNotDisturbSwitch)
            serverViewChanged()
        case .closed(let key, let reason, let listed):
            if notices.notices[key] != nil {
                carry(notices.closedByServer(key: key))
            } else {
                perform(machine.closedByServer(key: key, reason: reason, listed: listed, now: now()))
            }
        case .activated(let key, let action, let token):
            if notices.notices[key] != nil {
                carry(notices.activated(key: key, action: action))
            } else if action == "default" {
                activationHandlers[key]?(token)
            }
        }
    }
}
