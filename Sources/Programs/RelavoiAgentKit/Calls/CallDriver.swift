import FoundationEssentials
import Glibc
import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiSettings
import RelavoiStream
import RelavoiStreamEngine

/// Carries out `CallMachine` for the agent: stream events and lookup answers
/// go in, its actions become banners (`BannerDriver`), REST lookups
/// (`SessionLookup`) and log lines. Holds one timer, set to the machine's
/// next deadline. What a call's banner says and when is the machine's; the
/// extensions add what is the agent's own: the D-Bus control interface's
/// banners, the reconciliation with the server after a reconnect, a click's
/// page.
@MainActor
public final class CallDriver {
    /// How long a missed-call banner and an SMS banner stay in the tray at most.
    static let missedLinger: TimeInterval = 4 * 3600
    static let smsLinger: TimeInterval = 300
    static let summaryKey = "summary"

    public private(set) var settings: AgentSettings
    let banners: BannerDriver
    let lookup: SessionLookup
    let now: () -> Date
    var machine: CallMachine
    private var timer: DeadlineTimer?
    /// Proxy numbers grouped for reading, once per number.
    var readableNumbers = ReadableNumbers()
    /// Each session's `open-url` page, built when its metadata arrives from `GET /sessions/{id}`.
    var sessionPages: SessionPages
    /// Called when the user dismissed a call's banner (for the D-Bus signal).
    public var onDismissed: (@MainActor (String) -> Void)?
    /// Called after any input that may have changed a call (the D-Bus `Calls` property).
    public var onCallsChanged: (@MainActor () -> Void)?
    /// The stream the calls come from (the control interface's `Connected`).
    package weak var stream: StreamConnectionDriver?
    /// Called when the calls the person is shown change phase or number (`pause-media`),
    /// whether or not a banner changed (a call in the summary has none).
    var onShownCallsChanged: (@MainActor (CallPhaseCounts) -> Void)?
    private var shownCallCounts = CallPhaseCounts()

    package init(
        settings: AgentSettings, banners: BannerDriver = .shared, lookup: SessionLookup,
        now: @escaping () -> Date = Date.init
    ) {
        self.settings = settings
        self.banners = banners
        self.lookup = lookup
        self.now = now
        sessionPages = SessionPages(template: settings.openURL)
        machine = CallMachine(settings: Self.machineSettings(settings))
    }

    static func machineSettings(_ settings: AgentSettings) -> CallMachine.Settings {
        CallMachine.Settings(
            proxyNumbers: Set(settings.proxyNumbers), maxBanners: settings.maxBanners,
            smsNotifications: settings.smsNotifications, verifiesByUserPhone: settings.userPhone != nil)
    }

    /// agent.conf was read again (new credentials after `relavoi-agent login`,
    /// or any other setting): what calls from now on get. Calls followed so
    /// far keep their banners; `max-banners` applies from the next start.
    func settingsChanged(_ new: AgentSettings) {
        let maxBanners = settings.maxBanners
        settings = new
        settings.maxBanners = maxBanners
        if new.openURL != sessionPages.template { sessionPages = SessionPages(template: new.openURL) }
        machine.preferencesChanged(
            proxyNumbers: Set(new.proxyNumbers), smsNotifications: new.smsNotifications,
            verifiesByUserPhone: new.userPhone != nil)
    }

    public var trackedSessionCount: Int { machine.knownSessionCount }
    public var followedCallCount: Int { machine.followedCount }

    public static func bannerKey(_ sessionId: String) -> String { "call:\(sessionId)" }

    // MARK: - Inputs

    public func handle(_ event: RelavoiEvent) {
        run(machine.event(event, now: now()))
    }

    /// Closes every banner (at exit).
    public func closeAll() {
        run(machine.closeAll())
    }

    /// Carries out actions, then re-arms the timer for the next deadline.
    func run(_ actions: [CallMachine.Action]) {
        for action in actions { perform(action) }
        reschedule()
        // Only what changes a banner can change the `Calls` property or the tray item.
        if actions.contains(where: \.changesBanners) { onCallsChanged?() }
        if machine.shownCallCounts != shownCallCounts {
            shownCallCounts = machine.shownCallCounts
            onShownCallsChanged?(shownCallCounts)
        }
    }

    // MARK: - Actions

    private func perform(_ action: CallMachine.Action) {
        switch action {
        case .show(let view, let rings):
            opensOnClick(key: Self.bannerKey(view.sessionId), sessionId: view.sessionId)
            banners.show(banner(view), key: Self.bannerKey(view.sessionId), rings: rings, onRemoved: removal(view))
        case .end(let view, let durationSeconds, let immediate):
            let key = Self.bannerKey(view.sessionId)
            let policy = immediate ? .immediate : settings.dismissPolicy.policy(now: now())
            if banners.banner(key) == nil {
                // Never shown (it ended while its lookups were in flight): only its ended state, if any.
                guard !immediate, settings.dismissPolicy != .immediate else { return }
                opensOnClick(key: key, sessionId: view.sessionId)
                banners.showEnded(
                    banner(view), key: key, policy: policy, durationSeconds: durationSeconds, onRemoved: removal(view))
                return
            }
            banners.end(key: key, policy: policy, durationSeconds: durationSeconds)
        case .miss(let view):
            var missed = banner(view)
            missed.phase = .missed(closeAt: now().addingTimeInterval(Self.missedLinger))
            banners.show(missed, key: Self.bannerKey(view.sessionId), onRemoved: removal(view))
        case .summary(let count):
            showSummary(count: count)
        case .smsBanner(let sessionId, let proxyNumber, let label):
            let attributes = RelavoiCallAttributes(
                sessionId: sessionId, proxyNumber: readableNumbers.text(proxyNumber), startedAt: now())
            let message = Banner(
                attributes: attributes, badge: .checking, label: label,
                phase: .message(closeAt: now().addingTimeInterval(Self.smsLinger)))
            banners.show(message, key: "sms:\(sessionId)")
        case .fetchDetails(let sessionId, let request):
            Task { @MainActor [weak self] in
                guard let self else { return }
                let details = await self.lookup.session(sessionId).flatMap {
                    SessionDetails(json: $0, labelKey: self.settings.labelKey, tenantId: self.settings.tenantId)
                }
                if let details { self.sessionPages.remember(metadata: details.metadata, of: sessionId) }
                self.run(
                    self.machine.detailsArrived(
                        sessionId: sessionId, request: request, details: details, now: self.now()))
            }
        case .verify(let sessionId, let request):
            guard let phone = settings.userPhone else { return }
            Task { @MainActor [weak self] in
                guard let self else { return }
                let answer = await self.lookup.verify(userPhone: phone)
                self.run(
                    self.machine.verificationArrived(
                        sessionId: sessionId, request: request, answer: answer, now: self.now()))
            }
        case .log(let level, let text):
            switch level {
            case .debug: Log.debug(text)
            case .info: Log.info(text)
            case .warning: Log.warning(text)
            }
        }
    }

    /// When a call's banner is gone: dismissed by the user (the machine gives
    /// up its slot; the D-Bus signal), or closed or expired.
    private func removal(_ view: CallMachine.CallView) -> BannerDriver.RemovalHandler {
        { [weak self] byUser in
            guard let self else { return }
            self.sessionPages.forget(view.sessionId)
            if byUser {
                self.run(self.machine.userDismissed(view.sessionId))
                self.onDismissed?(view.sessionId)
            }
            self.onCallsChanged?()
        }
    }

    private func banner(_ view: CallMachine.CallView) -> Banner {
        // Shows and misses only (a call's changes, never its timer ticks): the number is formatted here.
        let startedAt: Date
        let phase: Banner.Phase
        switch view.phase {
        case .ringing(let since):
            startedAt = since
            phase = .ringing
        case .live(let since):
            startedAt = since
            phase = .active
        }
        return Banner(
            attributes: RelavoiCallAttributes(
                sessionId: view.sessionId, proxyNumber: readableNumbers.text(view.proxyNumber), startedAt: startedAt),
            badge: view.badge, label: view.label, phase: phase, rangAt: view.rangAt)
    }

    private func showSummary(count: Int) {
        guard count > 0 else {
            banners.close(key: Self.summaryKey)
            return
        }
        let attributes = RelavoiCallAttributes(sessionId: Self.summaryKey, proxyNumber: "", startedAt: now())
        banners.show(
            Banner(attributes: attributes, badge: .checking, label: "", phase: .summary(count: count)),
            key: Self.summaryKey)
    }

    /// One timer, set to the machine's next deadline (first shows, lookup bounds).
    private func reschedule() {
        if timer == nil {
            timer = DeadlineTimer(slack: 0.001) { [weak self] in
                guard let self else { return }
                self.run(self.machine.tick(now: self.now()))
            }
        }
        timer?.schedule(at: machine.nextWake(), now: now())
    }
}

extension CallMachine.Action {
    /// Shows, ends or counts a banner (not a lookup or a log line).
    fileprivate var changesBanners: Bool {
        switch self {
        case .show, .end, .miss, .summary, .smsBanner: return true
        case .fetchDetails, .verify, .log: return false
        }
    }
}
