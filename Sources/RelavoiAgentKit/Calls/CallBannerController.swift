import Foundation
import RelavoiGLib
import RelavoiSDK

/// Turns the tenant's event stream into banners: which calls get one
/// (`CallBook`), what they show (the session's label and server-side
/// verification), and how they end (the dismissal policy).
@MainActor
public final class CallBannerController {
    /// How long a missed-call notice and an SMS notice stay in the tray at most.
    static let noticeLinger: TimeInterval = 4 * 3600
    static let smsLinger: TimeInterval = 300
    static let summaryKey = "summary"

    public private(set) var settings: AgentSettings
    let center: BannerCenter
    private let lookup: SessionLookup
    private let now: () -> Date
    private var book: CallBook
    private var directory = SessionDirectory()
    private var detailRequests: Set<String> = []
    /// Called when the user dismissed a call's banner (for the D-Bus signal).
    public var onDismissed: (@MainActor (String) -> Void)?

    public init(
        settings: AgentSettings, center: BannerCenter = .shared, lookup: SessionLookup,
        now: @escaping () -> Date = Date.init
    ) {
        self.settings = settings
        self.center = center
        self.lookup = lookup
        self.now = now
        book = CallBook(maxBanners: settings.maxBanners)
    }

    public var followedCalls: [String: CallBook.Call] { book.calls }
    public var trackedSessionCount: Int { directory.count }

    public static func bannerKey(_ sessionId: String) -> String { "call:\(sessionId)" }

    // MARK: - Events

    public func handle(_ event: RelavoiEvent) {
        switch event {
        case .sessionCreated(let sessionId, let proxyNumber, _):
            directory.rememberProxy(proxyNumber, for: sessionId)
        case .sessionActivated:
            break
        case .callIncoming(let sessionId, let callerNumber, let ts):
            // The contract sends no caller number: the SDK falls back to the proxy number.
            if directory[sessionId]?.proxyNumber == nil { directory.rememberProxy(callerNumber, for: sessionId) }
            guard !isStale(sessionId, ts) else { return }
            admit(sessionId, phase: .ringing)
        case .callAnswered(let sessionId, let ts):
            guard !isStale(sessionId, ts) else { return }
            admit(sessionId, phase: .active(startedAt: ts))
        case .callEnded(let sessionId, let durationSeconds, let ts):
            directory.rememberCallEnded(at: ts, for: sessionId)
            finish(sessionId, durationSeconds: durationSeconds > 0 ? durationSeconds : nil, missed: false)
        case .sessionExpired(let sessionId, _):
            finish(sessionId, durationSeconds: nil, missed: false)
            directory.forget(sessionId)
        case .smsReceived(let sessionId, _):
            notifySMS(sessionId)
        case .unknown(let type, let payload):
            if type == "call.failed" || type == "call.missed",
                let sessionId = (payload["payload"] ?? payload)["sessionId"]?.stringValue
            {
                finish(sessionId, durationSeconds: nil, missed: true)
            } else {
                Log.debug("event \(type.prefix(64)) has no banner")
            }
        }
    }

    /// A ring or answer older than the end already seen for the session came
    /// out of order: showing it would tick forever.
    private func isStale(_ sessionId: String, _ time: Date) -> Bool {
        guard let ended = directory[sessionId]?.callEndedAt, time <= ended else { return false }
        Log.info("ignoring a stale call event for session \(sessionId): its call ended already")
        return true
    }

    /// After a reconnect: sessions that ended or expired while the stream was
    /// down lose their banners. A failed listing changes nothing.
    func closeBannersOfEndedSessions() async {
        // Only calls known before the listing was asked for: one that began on
        // the stream meanwhile is live even if the listing missed it.
        let asked = Set(book.calls.keys)
        guard !asked.isEmpty else { return }
        guard let live = await lookup.liveSessionIds() else {
            Log.warning("could not list live sessions after reconnecting; banners stay as they are")
            return
        }
        for sessionId in book.calls.keys.sorted() where asked.contains(sessionId) && !live.contains(sessionId) {
            Log.info("session \(sessionId) ended while the stream was down; closing its banner")
            finish(sessionId, durationSeconds: nil, missed: false)
        }
    }

    /// Closes every banner (at exit).
    public func closeAll() {
        for sessionId in book.calls.keys.sorted() {
            run(book.callFinished(sessionId), durationSeconds: nil, immediate: true)
        }
        center.close(key: Self.summaryKey)
    }

    // MARK: - From calls to banners

    private func admit(_ sessionId: String, phase: CallBook.Phase) {
        if book.calls[sessionId] == nil, !settings.proxyNumbers.isEmpty {
            // The filter needs the proxy number; call.answered does not carry it.
            guard let proxyNumber = directory[sessionId]?.proxyNumber else {
                fetchDetails(sessionId) { [weak self] in self?.admitIfAllowed(sessionId, phase: phase) }
                return
            }
            guard settings.proxyNumbers.contains(proxyNumber) else { return }
        }
        run(book.callChanged(sessionId, phase: phase), durationSeconds: nil, immediate: false)
    }

    private func admitIfAllowed(_ sessionId: String, phase: CallBook.Phase) {
        guard let proxyNumber = directory[sessionId]?.proxyNumber, settings.proxyNumbers.contains(proxyNumber) else {
            return
        }
        run(book.callChanged(sessionId, phase: phase), durationSeconds: nil, immediate: false)
    }

    private func finish(_ sessionId: String, durationSeconds: Int?, missed: Bool) {
        let key = Self.bannerKey(sessionId)
        if missed, book.calls[sessionId]?.slot == .shown, book.calls[sessionId]?.phase == .ringing {
            // The ringing banner becomes a missed-call notice; the slot frees up.
            var commands = book.callFinished(sessionId)
            commands.removeAll { $0 == .endBanner(sessionId: sessionId) }
            center.miss(key: key, linger: Self.noticeLinger)
            run(commands, durationSeconds: nil, immediate: false)
            return
        }
        run(book.callFinished(sessionId), durationSeconds: durationSeconds, immediate: false)
    }

    private func run(_ commands: [CallBook.Command], durationSeconds: Int?, immediate: Bool) {
        for command in commands {
            switch command {
            case .showBanner(let sessionId, let phase):
                showBanner(sessionId, phase: phase)
            case .endBanner(let sessionId):
                let policy = immediate ? .immediate : settings.dismissPolicy.policy(now: now())
                center.end(key: Self.bannerKey(sessionId), policy: policy, durationSeconds: durationSeconds)
            case .summary(let count):
                showSummary(count: count)
            }
        }
    }

    private func showBanner(_ sessionId: String, phase: CallBook.Phase) {
        let key = Self.bannerKey(sessionId)
        let known = directory[sessionId]
        if center.banner(key) != nil, case .active(let startedAt) = phase {
            center.answer(key: key, startedAt: startedAt)
            return
        }
        let startedAt: Date
        let bannerPhase: Banner.Phase
        switch phase {
        case .ringing:
            startedAt = now()
            bannerPhase = .ringing
        case .active(let answeredAt):
            startedAt = answeredAt
            bannerPhase = .active
        }
        let banner = Banner(
            attributes: RelavoiCallAttributes(
                sessionId: sessionId, proxyNumber: known?.proxyNumber ?? "", startedAt: startedAt),
            verified: known?.verified ?? false, label: known?.label ?? "", phase: bannerPhase)
        center.show(banner, key: key) { [weak self] byUser in
            guard byUser, let self else { return }
            self.run(self.book.bannerDismissed(sessionId), durationSeconds: nil, immediate: false)
            self.onDismissed?(sessionId)
        }
        if known?.verified == nil {
            fetchDetails(sessionId) { [weak self] in self?.refreshBanner(sessionId) }
        }
    }

    private func refreshBanner(_ sessionId: String) {
        let key = Self.bannerKey(sessionId)
        guard let entry = directory[sessionId], let banner = center.banner(key) else { return }
        if banner.attributes.proxyNumber.isEmpty, let proxyNumber = entry.proxyNumber {
            var updated = banner
            updated.attributes = RelavoiCallAttributes(
                sessionId: sessionId, proxyNumber: proxyNumber, startedAt: banner.attributes.startedAt)
            updated.verified = entry.verified ?? false
            updated.label = entry.label ?? ""
            center.show(updated, key: key)
        } else {
            center.update(key: key, elapsedSeconds: nil, verified: entry.verified ?? false, label: entry.label ?? "")
        }
    }

    private func showSummary(count: Int) {
        guard count > 0 else {
            center.close(key: Self.summaryKey)
            return
        }
        let attributes = RelavoiCallAttributes(sessionId: Self.summaryKey, proxyNumber: "", startedAt: now())
        center.show(
            Banner(attributes: attributes, verified: false, label: "", phase: .summary(count: count)),
            key: Self.summaryKey)
    }

    private func notifySMS(_ sessionId: String) {
        guard settings.smsNotifications else { return }
        let proxyNumber = directory[sessionId]?.proxyNumber
        if !settings.proxyNumbers.isEmpty {
            guard let proxyNumber, settings.proxyNumbers.contains(proxyNumber) else { return }
        }
        let attributes = RelavoiCallAttributes(sessionId: sessionId, proxyNumber: proxyNumber ?? "", startedAt: now())
        let banner = Banner(
            attributes: attributes, verified: directory[sessionId]?.verified ?? false,
            label: directory[sessionId]?.label ?? "", phase: .message(closeAt: now().addingTimeInterval(Self.smsLinger))
        )
        center.show(banner, key: "sms:\(sessionId)")
    }

    // MARK: - Session details and verification

    /// Fetches label, proxy number and verification once per session at a time.
    private func fetchDetails(_ sessionId: String, then done: @escaping @MainActor () -> Void) {
        guard detailRequests.insert(sessionId).inserted else { return }
        Task { @MainActor [weak self] in
            guard let self else { return }
            let details = await self.lookup.session(sessionId).flatMap {
                SessionDetails(json: $0, labelKey: self.settings.labelKey, tenantId: self.settings.tenantId)
            }
            var verified = details?.isLive ?? false
            if let phone = self.settings.userPhone {
                // With a user phone, the server's verification decides.
                let answer = await self.lookup.verify(userPhone: phone)
                verified = answer.map { SessionDetails.verifies($0, sessionId: sessionId) } ?? false
            }
            self.detailRequests.remove(sessionId)
            self.directory.rememberDetails(
                proxyNumber: details?.proxyNumber, label: details?.label, verified: verified, for: sessionId)
            done()
        }
    }
}
