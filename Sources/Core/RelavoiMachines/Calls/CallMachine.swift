import FoundationEssentials
import RelavoiCore

/// Everything the agent decides per call, as a pure state machine: which
/// calls get a banner (proxy-number filter, cap and summary), their phases,
/// stale and out-of-order events, user dismissal, the reconcile listings
/// after a reconnect, and what is known of each session (number, label,
/// verification). Inputs take `now`; outputs are the actions the driver
/// (`CallDriver`) carries out. No I/O, no clock, no timer: the
/// driver calls `tick(now:)` at `nextWake`.
///
/// Trust rules it keeps: the badge is `checking` until the server answered
/// for this call, `unavailable` when the lookup failed or timed out, and
/// verified only on the server's yes for this session. The first `Notify`
/// of a call waits up to `Settings.firstShowWait` for the session's details
/// and verification; the ringing sound is asked for once per call.
public struct CallMachine: Sendable {
    public struct Settings: Equatable, Sendable {
        /// Only calls on these proxy numbers get banners; empty: all.
        public var proxyNumbers: Set<String>
        public var maxBanners: Int
        public var smsNotifications: Bool
        /// With a user phone, `GET /sessions/verify` decides the badge; without
        /// one, the session's own state (ACTIVE or GRACE_PERIOD for this tenant).
        public var verifiesByUserPhone: Bool
        /// How long the first `Notify` of a call waits for details and verification.
        public var firstShowWait: TimeInterval
        /// How long a lookup may take before its answer counts as failed.
        public var lookupTimeout: TimeInterval
        /// Calls followed and sessions remembered at most.
        public var capacity: Int

        public init(
            proxyNumbers: Set<String> = [], maxBanners: Int = 3, smsNotifications: Bool = true,
            verifiesByUserPhone: Bool = false, firstShowWait: TimeInterval = 0.4, lookupTimeout: TimeInterval = 5,
            capacity: Int = 4096
        ) {
            self.proxyNumbers = proxyNumbers
            self.maxBanners = maxBanners
            self.smsNotifications = smsNotifications
            self.verifiesByUserPhone = verifiesByUserPhone
            self.firstShowWait = firstShowWait
            self.lookupTimeout = lookupTimeout
            self.capacity = capacity
        }
    }

    public enum Phase: Equatable, Sendable {
        /// Ringing since the agent saw it ring.
        case ringing(since: Date)
        /// Answered at this time (the timer counts from it).
        case live(since: Date)
    }

    /// What a call's banner shows.
    public struct CallView: Equatable, Sendable {
        public var sessionId: String
        /// From the stream or the session; "" while unknown.
        public var proxyNumber: String
        /// The other party's label from the session's metadata; "" while unknown.
        public var label: String
        public var badge: VerificationBadge
        public var phase: Phase
        /// When it started ringing, if it rang.
        public var rangAt: Date?
    }

    public enum Action: Equatable, Sendable {
        /// Show the call's banner, or bring it to this content. `rings`: the
        /// call's first ringing `Notify`, the only one that names the sound.
        case show(CallView, rings: Bool)
        /// The call is over: its banner ends per the dismissal policy (closes
        /// at once when `immediate`). A call never shown gets its ended state only.
        case end(CallView, durationSeconds: Int?, immediate: Bool)
        /// The call rang and was not answered: its banner becomes a missed-call banner.
        case miss(CallView)
        /// The summary notification counts this many calls without a banner (0: close it).
        case summary(count: Int)
        /// A short banner: an SMS arrived on a shown proxy number.
        case smsBanner(sessionId: String, proxyNumber: String, label: String)
        /// Ask `GET /sessions/{id}`; answer with `detailsArrived(request:)`.
        case fetchDetails(sessionId: String, request: Int)
        /// Ask `GET /sessions/verify`; answer with `verificationArrived(request:)`.
        case verify(sessionId: String, request: Int)
        case log(StreamLogLevel, String)
    }

    /// A snapshot taken when a reconcile asks its listings: what changed on
    /// the stream while they were under way wins over them.
    public struct ReconcileToken: Equatable, Sendable {
        let sequence: Int
        /// Calls followed when the listings were asked for.
        public let followed: Set<String>
        /// Of those, the answered ones: session id → the start their banners count from.
        public let answeredStarts: [String: Date]
    }

    /// One followed call.
    struct Call: Equatable, Sendable {
        var phase: Phase
        /// What it shows, copied from the session when known (the directory is a cache that may evict).
        var proxyNumber: String?
        var label: String?
        var badge: VerificationBadge = .checking
        /// The verification asked for this call, while it is in flight.
        var verifyRequest: Int?
        /// Passed the proxy-number filter: it holds a place in the book.
        var admitted: Bool
        /// Its banner has been shown (the first `Notify` went out).
        var shown = false
        /// Waiting for its first show until this token's deadline.
        var firstShowToken: Int?
        /// The ringing sound was asked for.
        var rang = false
        /// Ended before it was admitted (its filter lookup was in flight).
        var pendingFinish: Finish?
        var rangAt: Date?
    }

    enum Finish: Equatable, Sendable {
        case ended(durationSeconds: Int?)
        case missed
    }

    public private(set) var settings: Settings
    private(set) var book: CallBook
    private(set) var directory: SessionDirectory
    private(set) var calls: [String: Call] = [:]
    /// `GET /sessions/{id}` in flight: session id → request token.
    private(set) var detailRequests: [String: Int] = [:]
    private var nextToken = 1
    /// Input events seen, for "ended while a reconcile was under way".
    private var eventSequence = 0
    private var detailDeadlines = DeadlineQueue()
    private var verifyDeadlines = DeadlineQueue()
    private var firstShowDeadlines = DeadlineQueue()

    public init(settings: Settings) {
        self.settings = settings
        book = CallBook(maxBanners: settings.maxBanners, capacity: settings.capacity)
        directory = SessionDirectory(capacity: settings.capacity)
    }

    /// agent.conf was read again: the proxy-number filter, SMS banners and
    /// how calls are verified (by the person's number or by the session)
    /// apply to what comes from now on; calls already followed keep their
    /// banners. `maxBanners` and `capacity` stay as they were made.
    public mutating func preferencesChanged(
        proxyNumbers: Set<String>, smsNotifications: Bool, verifiesByUserPhone: Bool
    ) {
        settings.proxyNumbers = proxyNumbers
        settings.smsNotifications = smsNotifications
        settings.verifiesByUserPhone = verifiesByUserPhone
    }

    // MARK: - Reading

    public var followedCount: Int { calls.count }
    public var knownSessionCount: Int { directory.count }
    public func isFollowed(_ sessionId: String) -> Bool { calls[sessionId] != nil }
    /// The calls the person is shown, by phase: only admitted calls are in the book, with a
    /// banner, in the summary or dismissed (what `pause-media` counts).
    public var shownCallCounts: CallPhaseCounts { book.phaseCounts }

    /// Followed calls in the answered phase: session id → the start their banners count from.
    public var answeredStarts: [String: Date] {
        var starts: [String: Date] = [:]
        for sessionId in calls.keys {
            if let since = answeredStart(sessionId) { starts[sessionId] = since }
        }
        return starts
    }

    /// When the followed call's live banner counts from; nil unless live.
    func answeredStart(_ sessionId: String) -> Date? {
        if case .live(let since) = calls[sessionId]?.phase { return since }
        return nil
    }

    // MARK: - Stream events

    public mutating func event(_ event: RelavoiEvent, now: Date) -> [Action] {
        eventSequence += 1
        switch event {
        case .sessionCreated(let sessionId, let proxyNumber, _):
            if !proxyNumber.isEmpty { directory.rememberProxy(proxyNumber, for: sessionId) }
            return []
        case .sessionActivated:
            return []
        case .callIncoming(let sessionId, let callerNumber, let ts):
            // The contract sends no caller number: the SDK falls back to the proxy number.
            if directory[sessionId]?.proxyNumber == nil, !callerNumber.isEmpty {
                directory.rememberProxy(callerNumber, for: sessionId)
            }
            if calls[sessionId]?.proxyNumber == nil, !callerNumber.isEmpty {
                calls[sessionId]?.proxyNumber = callerNumber
            }
            if let stale = staleLog(sessionId, ts) { return [stale] }
            return callChanged(sessionId, phase: .ringing(since: now), now: now)
        case .callAnswered(let sessionId, let ts):
            if let stale = staleLog(sessionId, ts) { return [stale] }
            return callChanged(sessionId, phase: .live(since: ts), now: now)
        case .callEnded(let sessionId, let durationSeconds, let ts):
            directory.rememberCallEnded(at: ts, sequence: eventSequence, for: sessionId)
            return finish(sessionId, .ended(durationSeconds: durationSeconds > 0 ? durationSeconds : nil))
        case .sessionExpired(let sessionId, let ts):
            // The entry stays (bounded by the directory's capacity): a reconcile
            // under way must still see that this session ended after it asked,
            // and a reordered ring or answer from before the expiry is stale.
            directory.rememberCallEnded(at: ts, sequence: eventSequence, for: sessionId)
            return finish(sessionId, .ended(durationSeconds: nil))
        case .smsReceived(let sessionId, _):
            return smsBanner(sessionId)
        case .unknown(let type, let payload):
            // The one place that decides: a failed or missed call ends a ringing one.
            guard type == "call.failed" || type == "call.missed",
                let sessionId = (payload["payload"] ?? payload)["sessionId"]?.stringValue
            else { return [.log(.debug, "event \(type.prefix(64)) has no banner")] }
            directory.rememberCallEnded(at: nil, sequence: eventSequence, for: sessionId)
            return finish(sessionId, .missed)
        }
    }

    /// A ring or answer older than the end already seen for the session came
    /// out of order: showing it would tick forever.
    private func staleLog(_ sessionId: String, _ time: Date) -> Action? {
        guard let ended = directory[sessionId]?.callEndedAt, time <= ended else { return nil }
        return .log(.info, "ignoring a stale call event for session \(sessionId): its call ended already")
    }

    private mutating func callChanged(_ sessionId: String, phase: Phase, now: Date) -> [Action] {
        if var call = calls[sessionId] {
            // A ring while live changes nothing; an answer moves it on.
            if case .live = call.phase, case .ringing = phase { return [] }
            call.phase = phase
            calls[sessionId] = call
            guard call.admitted else { return [] }
            return slotActions(book.callChanged(sessionId, phase: bookPhase(phase)), now: now)
        }
        var actions: [Action] = []
        let entry = directory[sessionId]
        var admitted = true
        if !settings.proxyNumbers.isEmpty {
            if let proxyNumber = entry?.proxyNumber {
                guard settings.proxyNumbers.contains(proxyNumber) else { return [] }
            } else {
                // The filter needs the proxy number; call.answered does not carry it.
                admitted = false
            }
        }
        if calls.count >= settings.capacity { actions += dropOldestUnshown() }
        var call = Call(phase: phase, proxyNumber: entry?.proxyNumber, label: entry?.details?.label, admitted: admitted)
        if case .ringing(let since) = phase { call.rangAt = since }
        calls[sessionId] = call
        actions += askLookups(sessionId, now: now)
        if admitted { actions += slotActions(book.callChanged(sessionId, phase: bookPhase(phase)), now: now) }
        return actions
    }

    /// Asks what the call needs, in parallel: the session's details unless
    /// known, and its verification (asked again for every new call).
    private mutating func askLookups(_ sessionId: String, now: Date) -> [Action] {
        var actions: [Action] = []
        let entry = directory[sessionId]
        let needsDetails = entry?.details == nil || !settings.verifiesByUserPhone
        if needsDetails, detailRequests[sessionId] == nil {
            let token = takeToken()
            detailRequests[sessionId] = token
            detailDeadlines.append(sessionId, token: token, at: now.addingTimeInterval(settings.lookupTimeout))
            actions.append(.fetchDetails(sessionId: sessionId, request: token))
        }
        if settings.verifiesByUserPhone {
            let token = takeToken()
            calls[sessionId]?.verifyRequest = token
            verifyDeadlines.append(sessionId, token: token, at: now.addingTimeInterval(settings.lookupTimeout))
            actions.append(.verify(sessionId: sessionId, request: token))
        }
        return actions
    }

    private mutating func finish(_ sessionId: String, _ finish: Finish) -> [Action] {
        guard var call = calls[sessionId] else { return [] }
        if !call.admitted {
            // Its filter lookup is in flight: decided when the details arrive.
            call.pendingFinish = finish
            calls[sessionId] = call
            return []
        }
        return finishAdmitted(sessionId, call, finish)
    }

    private mutating func finishAdmitted(_ sessionId: String, _ call: Call, _ finish: Finish) -> [Action] {
        calls[sessionId] = nil
        // The book ends only a call that held a banner slot; overflow and
        // dismissed calls end without one.
        let bookActions = book.callFinished(sessionId)
        let actions = bookActions.contains(.endBanner(sessionId: sessionId)) ? [endAction(sessionId, call, finish)] : []
        return actions + slotActions(bookActions, now: nil)
    }

    /// How a finished call's banner ends: a missed-call banner for a ringing
    /// call that was missed (or failed), else its ended state.
    private func endAction(_ sessionId: String, _ call: Call, _ finish: Finish) -> Action {
        let view = view(sessionId, call)
        switch finish {
        case .missed:
            if case .ringing = call.phase { return .miss(view) }
            // Failed or missed after it was answered: the call is over.
            return .end(view, durationSeconds: nil, immediate: false)
        case .ended(let duration):
            return .end(view, durationSeconds: duration, immediate: false)
        }
    }

    // MARK: - Lookups answering

    /// `GET /sessions/{id}` answered (`details` nil: failed or not a session).
    public mutating func detailsArrived(
        sessionId: String, request: Int, details: SessionDetails?, now: Date
    ) -> [Action] {
        guard detailRequests[sessionId] == request else {
            return [.log(.debug, "a late or unasked session lookup for \(sessionId) is ignored")]
        }
        detailRequests[sessionId] = nil
        if let details { directory.rememberDetails(details, for: sessionId) }
        var actions: [Action] = []
        if details == nil { actions.append(.log(.info, "could not look up session \(sessionId)")) }
        guard var call = calls[sessionId] else { return actions }
        if let details {
            if let proxyNumber = details.proxyNumber { call.proxyNumber = proxyNumber }
            call.label = details.label
        }
        if !settings.verifiesByUserPhone, call.badge == .checking {
            call.badge = details.map { $0.isLive ? .verified : .unverified } ?? .unavailable
        }
        calls[sessionId] = call
        if !call.admitted { return actions + admitAfterLookup(sessionId, call, now: now) }
        return actions + refresh(sessionId, now: now)
    }

    /// `GET /sessions/verify` answered (`answer` nil: failed).
    public mutating func verificationArrived(
        sessionId: String, request: Int, answer: JSONValue?, now: Date
    ) -> [Action] {
        guard var call = calls[sessionId], call.verifyRequest == request else {
            return [.log(.debug, "a late or unasked verification for \(sessionId) is ignored")]
        }
        call.verifyRequest = nil
        call.badge =
            answer.map { VerificationBadge(verified: SessionDetails.verifies($0, sessionId: sessionId)) }
            ?? .unavailable
        calls[sessionId] = call
        var actions: [Action] = []
        if answer == nil { actions.append(.log(.info, "could not verify the call in session \(sessionId)")) }
        guard call.admitted else { return actions }
        return actions + refresh(sessionId, now: now)
    }

    /// The details of a call held back by the proxy-number filter arrived.
    private mutating func admitAfterLookup(_ sessionId: String, _ call: Call, now: Date) -> [Action] {
        guard let proxyNumber = call.proxyNumber, settings.proxyNumbers.contains(proxyNumber) else {
            calls[sessionId] = nil
            if call.proxyNumber == nil {
                return [.log(.info, "no banner for session \(sessionId): its proxy number is unknown")]
            }
            return []
        }
        if let finish = call.pendingFinish {
            // It ended while the lookup was in flight: no live or ringing
            // banner, only its ended or missed state (per the dismissal policy).
            calls[sessionId] = nil
            return [endAction(sessionId, call, finish)]
        }
        var admitted = call
        admitted.admitted = true
        calls[sessionId] = admitted
        return slotActions(book.callChanged(sessionId, phase: bookPhase(call.phase)), now: now)
    }

    /// Shows what is new of a call: its first show once the lookups are in,
    /// or an update of a shown banner.
    private mutating func refresh(_ sessionId: String, now: Date) -> [Action] {
        guard let call = calls[sessionId], book.calls[sessionId]?.slot == .shown else { return [] }
        if call.shown { return [show(sessionId)] }
        guard call.firstShowToken != nil, isComplete(sessionId, call) else { return [] }
        return [show(sessionId)]
    }

    /// Everything the first `Notify` should carry is known.
    private func isComplete(_ sessionId: String, _ call: Call) -> Bool {
        call.badge != .checking && detailRequests[sessionId] == nil
    }

    // MARK: - Slots and shows

    private func bookPhase(_ phase: Phase) -> CallBook.Phase {
        switch phase {
        case .ringing: return .ringing
        case .live(let since): return .active(startedAt: since)
        }
    }

    private mutating func slotActions(_ bookActions: [CallBook.Action], now: Date?) -> [Action] {
        var actions: [Action] = []
        for bookAction in bookActions {
            switch bookAction {
            case .showBanner(let sessionId, _):
                guard let call = calls[sessionId] else { continue }
                if call.shown || isComplete(sessionId, call) {
                    actions.append(show(sessionId))
                } else if call.firstShowToken == nil, let now {
                    // Wait a moment for the label and the badge rather than show a guess.
                    let token = takeToken()
                    calls[sessionId]?.firstShowToken = token
                    firstShowDeadlines.append(
                        sessionId, token: token, at: now.addingTimeInterval(settings.firstShowWait))
                } else if call.firstShowToken == nil {
                    actions.append(show(sessionId))
                }
            case .endBanner:
                // Only from callFinished, whose callers turn it into the end action.
                break
            case .summary(let count):
                actions.append(.summary(count: count))
            case .forgot(let sessionId):
                // The book was full: its oldest call without a banner went.
                calls[sessionId] = nil
            }
        }
        return actions
    }

    /// The show action of a call now, marking it shown (and rung).
    private mutating func show(_ sessionId: String) -> Action {
        var call = calls[sessionId]!
        call.shown = true
        call.firstShowToken = nil
        var rings = false
        if case .ringing = call.phase, !call.rang {
            rings = true
            call.rang = true
        }
        calls[sessionId] = call
        return .show(view(sessionId, call), rings: rings)
    }

    private func view(_ sessionId: String, _ call: Call) -> CallView {
        CallView(
            sessionId: sessionId, proxyNumber: call.proxyNumber ?? "", label: call.label ?? "", badge: call.badge,
            phase: call.phase, rangAt: call.rangAt)
    }

    /// The followed calls are at capacity: one call still waiting for its filter lookup goes.
    private mutating func dropOldestUnshown() -> [Action] {
        guard let sessionId = calls.first(where: { !$0.value.admitted })?.key else { return [] }
        calls[sessionId] = nil
        return [.log(.debug, "following too many calls; forgetting the pending call in session \(sessionId)")]
    }

    private func smsBanner(_ sessionId: String) -> [Action] {
        guard settings.smsNotifications else { return [] }
        let entry = directory[sessionId]
        if !settings.proxyNumbers.isEmpty {
            guard let proxyNumber = entry?.proxyNumber, settings.proxyNumbers.contains(proxyNumber) else { return [] }
        }
        return [
            .smsBanner(sessionId: sessionId, proxyNumber: entry?.proxyNumber ?? "", label: entry?.details?.label ?? "")
        ]
    }

    // MARK: - Time

    /// Carries out what is due at `now`: first shows that waited long enough
    /// (with what is known, the badge `checking` if the server has not
    /// answered), and lookups past their bound (`unavailable`).
    public mutating func tick(now: Date) -> [Action] {
        var actions: [Action] = []
        while let (sessionId, token) = detailDeadlines.popDue(now: now) {
            guard detailRequests[sessionId] == token else { continue }
            actions.append(.log(.info, "the lookup of session \(sessionId) timed out"))
            actions += detailsArrived(sessionId: sessionId, request: token, details: nil, now: now)
        }
        while let (sessionId, token) = verifyDeadlines.popDue(now: now) {
            guard calls[sessionId]?.verifyRequest == token else { continue }
            actions.append(.log(.info, "the verification of session \(sessionId) timed out"))
            actions += verificationArrived(sessionId: sessionId, request: token, answer: nil, now: now)
        }
        while let (sessionId, token) = firstShowDeadlines.popDue(now: now) {
            guard calls[sessionId]?.firstShowToken == token, book.calls[sessionId]?.slot == .shown else { continue }
            actions.append(show(sessionId))
        }
        return actions
    }

    /// When `tick` has work next; nil with nothing pending.
    public mutating func nextWake() -> Date? {
        let requests = detailRequests
        let calls = calls
        let fronts = [
            detailDeadlines.front { requests[$0] == $1 },
            verifyDeadlines.front { calls[$0]?.verifyRequest == $1 },
            firstShowDeadlines.front { calls[$0]?.firstShowToken == $1 },
        ]
        return fronts.compactMap { $0 }.min()
    }

    /// Deadlines queued, stale ones included (bounded: each is at most `lookupTimeout` old).
    var pendingDeadlineCount: Int { detailDeadlines.count + verifyDeadlines.count + firstShowDeadlines.count }

    private mutating func takeToken() -> Int {
        defer { nextToken += 1 }
        return nextToken
    }

    // MARK: - The user and the reconcile

    /// The user dismissed the call's banner: followed to its end, never shown again.
    public mutating func userDismissed(_ sessionId: String) -> [Action] {
        slotActions(book.bannerDismissed(sessionId), now: nil)
    }

    /// The reconcile after a connect is about to ask its listings.
    public func reconcileBegan() -> ReconcileToken {
        ReconcileToken(sequence: eventSequence, followed: Set(calls.keys), answeredStarts: answeredStarts)
    }

    /// Whether the stream told of the session's call ending after `token`.
    public func endedSince(_ token: ReconcileToken, sessionId: String) -> Bool {
        (directory[sessionId]?.endSequence ?? 0) > token.sequence
    }

    /// `GET /sessions` for ACTIVE and GRACE_PERIOD answered: banners of calls
    /// followed when it was asked whose session is not live any more end.
    public mutating func liveSessionsListed(_ live: Set<String>, token: ReconcileToken) -> [Action] {
        var actions: [Action] = []
        for sessionId in token.followed.sorted() where !live.contains(sessionId) && calls[sessionId] != nil {
            actions.append(.log(.info, "session \(sessionId) ended while the stream was down; closing its banner"))
            actions += finish(sessionId, .ended(durationSeconds: nil))
        }
        return actions
    }

    /// `GET /calls?status=ANSWERED` answered: calls answered while the stream
    /// was down show (or are corrected to) their answer time; answered calls
    /// the server no longer lists end. `listed` holds only calls of live
    /// sessions (the driver checked the ones it did not follow).
    public mutating func callsInProgressListed(
        _ listed: [CallsInProgress.Call], token: ReconcileToken, now: Date
    ) -> [Action] {
        let before = token.answeredStarts
        let plan = CallsInProgress.plan(listed: listed, followed: before, now: now)
        var actions: [Action] = []
        for call in plan.answered {
            let sessionId = call.sessionId
            guard !endedSince(token, sessionId: sessionId) else { continue }
            if let stale = staleLog(sessionId, call.answeredAt) {
                actions.append(stale)
                continue
            }
            if let current = answeredStart(sessionId) {
                // The stream told of it meanwhile, or changed it: it knows better than the listing.
                if abs(current.timeIntervalSince(call.answeredAt)) < 1 || current != before[sessionId] { continue }
                actions.append(
                    .log(.info, "the call in session \(sessionId) is shown from its answer time on the server"))
            } else {
                actions.append(.log(.info, "the call in session \(sessionId) was answered while the stream was down"))
            }
            actions += callChanged(sessionId, phase: .live(since: call.answeredAt), now: now)
        }
        for sessionId in plan.ended {
            // Only when nothing changed the call while the listing was under way.
            guard answeredStart(sessionId) == before[sessionId], !endedSince(token, sessionId: sessionId) else {
                continue
            }
            actions.append(
                .log(.info, "the call in session \(sessionId) ended while the stream was down; ending its banner"))
            // No end time is remembered: the local clock must not be compared with the server's.
            actions += finish(sessionId, .ended(durationSeconds: nil))
        }
        return actions
    }

    /// Every banner closes now (at exit).
    public mutating func closeAll() -> [Action] {
        var actions: [Action] = []
        for sessionId in calls.keys.sorted() {
            guard let call = calls[sessionId] else { continue }
            calls[sessionId] = nil
            if book.calls[sessionId]?.slot == .shown, call.shown {
                actions.append(.end(view(sessionId, call), durationSeconds: nil, immediate: true))
            }
            _ = book.callFinished(sessionId)
        }
        return actions + [.summary(count: 0)]
    }
}
