import Foundation
import RelavoiAgentKit
import RelavoiCore

/// Records what the control interface asked for and keeps a simple list of banners.
@MainActor
final class FakeBannerControl: BannerControl {
    enum Call: Equatable {
        case start(sessionId: String, proxyNumber: String, label: String, verified: Bool)
        case update(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String)
        case end(sessionId: String, policy: DismissPolicy)
    }

    var calls: [Call] = []
    var banners: [BannerListing] = []
    var isStreamConnected = false
    /// When set, `startBanner` throws it.
    var startFailure: ControlError?

    func startBanner(sessionId: String, proxyNumber: String, label: String, verified: Bool) throws(ControlError) {
        if let startFailure { throw startFailure }
        calls.append(.start(sessionId: sessionId, proxyNumber: proxyNumber, label: label, verified: verified))
        banners.removeAll { $0.sessionId == sessionId }
        var listing = BannerListing(
            sessionId: sessionId, proxyNumber: proxyNumber, label: label, verified: verified, elapsedSeconds: 0,
            phase: .active)
        listing.answeredAt = Date()
        banners.append(listing)
    }

    func updateBanner(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String) throws(ControlError) {
        guard let index = banners.firstIndex(where: { $0.sessionId == sessionId }) else {
            throw .unknownSession(sessionId)
        }
        calls.append(.update(sessionId: sessionId, elapsedSeconds: elapsedSeconds, verified: verified, label: label))
        banners[index].elapsedSeconds = elapsedSeconds
        banners[index].answeredAt = Date().addingTimeInterval(-Double(elapsedSeconds))
        banners[index].verified = verified
        banners[index].label = label
    }

    func endBanner(sessionId: String, policy: DismissPolicy) throws(ControlError) {
        guard let index = banners.firstIndex(where: { $0.sessionId == sessionId }) else {
            throw .unknownSession(sessionId)
        }
        calls.append(.end(sessionId: sessionId, policy: policy))
        if policy == .immediate {
            banners.remove(at: index)
        } else {
            banners[index].phase = .ended
        }
    }

    func listBanners() -> [BannerListing] { banners }

    func openCall(sessionId: String) throws(ControlError) {
        guard banners.contains(where: { $0.sessionId == sessionId }) else { throw .unknownSession(sessionId) }
    }

    func dismissBanner(sessionId: String) throws(ControlError) {
        guard banners.contains(where: { $0.sessionId == sessionId }) else { throw .unknownSession(sessionId) }
        banners.removeAll { $0.sessionId == sessionId }
    }

    func diagnostics() -> [(name: String, value: Int64)] {
        [("banners", Int64(banners.count)), ("answer", 42)]
    }
}
