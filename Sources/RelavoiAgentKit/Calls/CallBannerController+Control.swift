import Foundation
import RelavoiGLib
import RelavoiSDK

/// The D-Bus control interface drives the same banners the stream does
/// (key `call:<sessionId>`), so `List`/`End` see both. Banners started over
/// D-Bus do not take a slot of `max-banners`: the local app asked for them.
extension CallBannerController: BannerControl {
    public func startBanner(sessionId: String, proxyNumber: String, label: String, verified: Bool) throws(ControlError)
    {
        let attributes = RelavoiCallAttributes(sessionId: sessionId, proxyNumber: proxyNumber, startedAt: Date())
        let banner = Banner(attributes: attributes, verified: verified, label: label, phase: .active)
        center.show(banner, key: Self.bannerKey(sessionId)) { [weak self] byUser in
            if byUser { self?.onDismissed?(sessionId) }
        }
    }

    public func updateBanner(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String) throws(ControlError)
    {
        let key = Self.bannerKey(sessionId)
        guard center.banner(key) != nil else { throw .unknownSession(sessionId) }
        center.update(key: key, elapsedSeconds: elapsedSeconds, verified: verified, label: label)
    }

    public func endBanner(sessionId: String, policy: DismissPolicy) throws(ControlError) {
        let key = Self.bannerKey(sessionId)
        guard center.banner(key) != nil else { throw .unknownSession(sessionId) }
        center.end(key: key, policy: policy)
    }

    public func listBanners() -> [BannerListing] {
        let now = Date()
        return center.activeKeys.compactMap { key -> BannerListing? in
            guard key.hasPrefix("call:"), let banner = center.banner(key) else { return nil }
            let phase: BannerListing.Phase
            switch banner.phase {
            case .ringing: phase = .ringing
            case .active: phase = .active
            case .ended: phase = .ended
            case .missed: phase = .missed
            case .message, .summary: return nil
            }
            return BannerListing(
                sessionId: banner.attributes.sessionId, proxyNumber: banner.attributes.proxyNumber,
                label: banner.label, verified: banner.verified, elapsedSeconds: banner.snapshot(at: now).seconds,
                phase: phase)
        }
    }

    public var isStreamConnected: Bool {
        Relavoi.isInitialized && Relavoi.shared.events.connectionState == .connected
    }

    public func diagnostics() -> [(name: String, value: Int64)] {
        // No presenter (banners off, or stopping): no presenter figure, rather than a 0.
        let presenter = center.presenterSourceCount.map { [("presenter-context-sources", Int64($0))] } ?? []
        return ProcessFigures.current() + [("main-context-sources", Int64(ContextSources.liveCount(in: nil)))]
            + presenter + [
                ("banners", Int64(center.activeKeys.count)),
                ("followed-calls", Int64(followedCallCount)),
                ("known-sessions", Int64(trackedSessionCount)),
            ]
    }
}
