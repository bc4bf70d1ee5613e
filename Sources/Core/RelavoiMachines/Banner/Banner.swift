import FoundationEssentials
import RelavoiCore

/// One banner's truth: what call it shows and where in its life it is.
public struct Banner: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// The phone rings; no timer yet.
        case ringing
        /// The call runs; the timer ticks from `attributes.startedAt`.
        case active
        /// The call ended after `durationSeconds`; the banner closes at `closeAt`.
        case ended(durationSeconds: Int, closeAt: Date)
        /// Rang and was not answered; closes at `closeAt`.
        case missed(closeAt: Date)
        /// A short banner (an SMS arrived); closes at `closeAt`.
        case message(closeAt: Date)
        /// Counts calls that have no banner of their own.
        case summary(count: Int)
    }

    public var attributes: RelavoiCallAttributes
    public var badge: VerificationBadge
    public var label: String
    public var phase: Phase
    /// When the call started ringing, if it rang (the panels' timeline).
    public var rangAt: Date?
    /// When the call ended; set by `BannerMachine.end`.
    public var endedAt: Date?
    /// Another call began ringing while this one rang or was live
    /// (`BannerMachine.show`): a ringing call keeps it while it rings, a live
    /// one until no call rings.
    public var outrung = false

    public init(
        attributes: RelavoiCallAttributes, badge: VerificationBadge, label: String, phase: Phase, rangAt: Date? = nil
    ) {
        self.attributes = attributes
        self.badge = badge
        self.label = label
        self.phase = phase
        self.rangAt = rangAt
    }

    /// A banner whose badge is the server's yes or no (the SDK's API).
    public init(attributes: RelavoiCallAttributes, verified: Bool, label: String, phase: Phase) {
        self.init(attributes: attributes, badge: VerificationBadge(verified: verified), label: label, phase: phase)
    }

    /// Whether the server said yes (the SDK's `State.verified`).
    public var verified: Bool { badge == .verified }

    public var isTicking: Bool { phase == .active }

    public var closeAt: Date? {
        switch phase {
        case .ringing, .active, .summary: return nil
        case .ended(_, let closeAt), .missed(let closeAt), .message(let closeAt): return closeAt
        }
    }

    /// What the banner shows at `now`: the input of the renderer.
    public func snapshot(at now: Date) -> BannerSnapshot {
        let kind: BannerSnapshot.Kind
        let seconds: Int
        switch phase {
        case .ringing:
            kind = .ringing
            seconds = 0
        case .active:
            kind = .active
            seconds = Self.elapsed(from: attributes.startedAt, to: now)
        case .ended(let duration, _):
            kind = .ended
            seconds = duration
        case .missed:
            kind = .missed
            seconds = 0
        case .message:
            kind = .message
            seconds = 0
        case .summary(let count):
            kind = .summary
            seconds = count
        }
        var snapshot = BannerSnapshot(
            kind: kind, label: label, proxyNumber: attributes.proxyNumber, badge: badge, seconds: seconds,
            startedAt: kind == .active ? attributes.startedAt : nil)
        snapshot.outrung = (kind == .ringing || kind == .active) && outrung
        return snapshot
    }

    /// Whole seconds from `start` to `now`, never negative.
    public static func elapsed(from start: Date, to now: Date) -> Int {
        let interval = now.timeIntervalSince(start)
        guard interval.isFinite, interval > 0 else { return 0 }
        return Int(min(interval, Double(Int32.max)).rounded(.down))
    }
}
