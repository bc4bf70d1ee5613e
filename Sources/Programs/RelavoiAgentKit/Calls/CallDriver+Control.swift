import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// The D-Bus control interface drives the same banners the stream does
/// (key `call:<sessionId>`), so `List`/`End` see both. Banners started over
/// D-Bus do not take a slot of `max-banners`: the local app asked for them.
extension CallDriver: BannerControl {
    public func startBanner(sessionId: String, proxyNumber: String, label: String, verified: Bool) throws(ControlError)
    {
        let attributes = RelavoiCallAttributes(
            sessionId: sessionId, proxyNumber: readableNumbers.text(proxyNumber), startedAt: Date())
        let banner = Banner(attributes: attributes, verified: verified, label: label, phase: .active)
        banners.show(banner, key: Self.bannerKey(sessionId)) { [weak self] byUser in
            if byUser { self?.onDismissed?(sessionId) }
            self?.onCallsChanged?()
        }
        // The panel item and the Calls property follow D-Bus's banners as the stream's.
        onCallsChanged?()
    }

    public func updateBanner(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String) throws(ControlError)
    {
        let key = Self.bannerKey(sessionId)
        guard banners.banner(key) != nil else { throw .unknownSession(sessionId) }
        banners.update(key: key, elapsedSeconds: elapsedSeconds, verified: verified, label: label)
        onCallsChanged?()
    }

    public func endBanner(sessionId: String, policy: DismissPolicy) throws(ControlError) {
        let key = Self.bannerKey(sessionId)
        guard banners.banner(key) != nil else { throw .unknownSession(sessionId) }
        banners.end(key: key, policy: policy)
        onCallsChanged?()
    }

    public func dismissBanner(sessionId: String) throws(ControlError) {
        let key = Self.bannerKey(sessionId)
        guard banners.banner(key) != nil else { throw .unknownSession(sessionId) }
        banners.dismiss(key: key)
    }

    public func listBanners() -> [BannerListing] {
        let time = now()
        let listings = banners.activeKeys.compactMap { key -> BannerListing? in
            guard key.hasPrefix("call:"), let banner = banners.banner(key) else { return nil }
            var listing = Self.listing(banner, now: time)
            // A lookup: the page was built when the session's metadata came (the panels list every second).
            listing?.canOpen = sessionPages.canOpen(banner.attributes.sessionId)
            return listing
        }
        // Oldest call first, as the panels show them.
        return listings.sorted {
            let (a, b) = ($0.rangAt ?? $0.answeredAt ?? .distantPast, $1.rangAt ?? $1.answeredAt ?? .distantPast)
            return a != b ? a < b : $0.sessionId < $1.sessionId
        }
    }

    /// A call banner as the control interface shows it: the texts the banner
    /// shows (display labels), the badge and the times to draw a timer from.
    static func listing(_ banner: Banner, now: Date) -> BannerListing? {
        let phase: BannerListing.Phase
        var answeredAt: Date?
        var duration = 0
        switch banner.phase {
        case .ringing:
            phase = .ringing
        case .active:
            phase = .active
            answeredAt = banner.attributes.startedAt
        case .ended(let seconds, _):
            phase = .ended
            duration = seconds
            answeredAt = banner.attributes.startedAt
        case .missed:
            phase = .missed
        case .message, .summary:
            return nil
        }
        let rangAt = banner.rangAt ?? (phase == .ringing || phase == .missed ? banner.attributes.startedAt : nil)
        return BannerListing(
            sessionId: banner.attributes.sessionId,
            proxyNumber: BannerText.label(banner.attributes.proxyNumber, fallback: ""),
            label: BannerText.label(banner.label, fallback: ""), badge: banner.badge,
            elapsedSeconds: banner.snapshot(at: now).seconds, phase: phase, rangAt: rangAt, answeredAt: answeredAt,
            endedAt: banner.endedAt, durationSeconds: duration)
    }

    public func openCall(sessionId: String) throws(ControlError) {
        guard banners.banner(Self.bannerKey(sessionId)) != nil else { throw .unknownSession(sessionId) }
        if let failure = openSession(sessionId, activationToken: nil) { throw .failed(failure) }
    }

    public var isStreamConnected: Bool {
        stream?.connectionState == .connected
    }

    public func diagnostics() -> [(name: String, value: Int64)] {
        // No delivery (banners off, or stopping): no delivery figure, rather than a 0.
        let delivery = banners.deliverySourceCount.map { [("delivery-context-sources", Int64($0))] } ?? []
        return ProcessFigures.current() + [("main-context-sources", Int64(ContextSources.liveCount(in: nil)))]
            + delivery + [
                ("banners", Int64(banners.activeKeys.count)),
                ("notification-server", banners.isServerAvailable ? 1 : 0),
                ("banner-timer", banners.isTimerRunning ? 1 : 0),
                ("followed-calls", Int64(followedCallCount)),
                ("known-sessions", Int64(trackedSessionCount)),
            ] + streamFigures
    }

    /// What the stream has seen since the agent started: a malformed or
    /// duplicate count that grows says what the server sends.
    private var streamFigures: [(name: String, value: Int64)] {
        guard let stream else { return [] }
        return [
            ("stream-frames", Int64(stream.framesReceived)),
            ("stream-events", Int64(stream.eventsDelivered)),
            ("stream-duplicates", Int64(stream.duplicatesDropped)),
            ("stream-malformed", Int64(stream.malformedFrames)),
            ("token-requests", Int64(stream.tokenRequestCount)),
        ]
    }
}
