import FoundationEssentials
import RelavoiCore

/// All banners of the process and their lifecycle, as a pure state machine:
/// methods take the time and return what the driver must do. Holds no timer;
/// `nextWake(after:)` tells when it wants `tick` next.
public struct BannerMachine: Sendable {
    public enum Action: Equatable, Sendable {
        /// Show or update the banner to this content.
        case present(key: String, snapshot: BannerSnapshot)
        /// Close the banner on the server.
        case close(key: String)
        /// The banner is gone (closed by us, expired, or dismissed by the user).
        case removed(key: String, byUser: Bool)
    }

    public private(set) var banners: [String: Banner] = [:]
    /// Banners the server expired while they were to leave the screen by
    /// themselves (`expiredOffScreen`): kept, their ticks not shown, until
    /// their next show (their end) makes a new notification.
    public private(set) var offScreen: Set<String> = []

    public init() {}

    public var isEmpty: Bool { banners.isEmpty }

    /// Starts or replaces a banner in any phase and shows it. A call that
    /// starts ringing outrings every other ringing or live call (`Banner.outrung`),
    /// which is shown again as such; when no call rings any more, the live
    /// ones are shown again as before (`releaseLiveCalls`).
    public mutating func show(_ banner: Banner, key: String, now: Date) -> [Action] {
        var banner = banner
        let old = banners[key]
        // A ringing call keeps its mark; a live one keeps it, or gets it if it
        // goes live while another call rings.
        let ringsElsewhere = banners.contains { $0.key != key && $0.value.phase == .ringing }
        banner.outrung =
            Self.canBeOutrung(banner.phase)
            && (old?.phase == banner.phase ? old?.outrung == true : banner.phase == .active && ringsElsewhere)
        banners[key] = banner
        offScreen.remove(key)
        var actions: [Action] = [.present(key: key, snapshot: banner.snapshot(at: now))]
        if banner.phase == .ringing, old?.phase != .ringing {
            for other in banners.keys.sorted() where other != key {
                guard var rival = banners[other], Self.canBeOutrung(rival.phase), !rival.outrung else { continue }
                rival.outrung = true
                banners[other] = rival
                if !offScreen.contains(other) {
                    actions.append(.present(key: other, snapshot: rival.snapshot(at: now)))
                }
            }
        } else if old?.phase == .ringing {
            actions += releaseLiveCalls(now: now)
        }
        return actions
    }

    /// A ringing call stays outrung while it rings; a live one, until no call rings.
    private static func canBeOutrung(_ phase: Banner.Phase) -> Bool { phase == .ringing || phase == .active }

    /// No call rings any more: the outrung live calls are shown as before
    /// (at `now`, or from their next tick).
    private mutating func releaseLiveCalls(now: Date?) -> [Action] {
        guard !banners.values.contains(where: { $0.phase == .ringing }) else { return [] }
        var actions: [Action] = []
        for key in banners.keys.sorted() {
            guard var banner = banners[key], banner.phase == .active, banner.outrung else { continue }
            banner.outrung = false
            banners[key] = banner
            if let now, !offScreen.contains(key) {
                actions.append(.present(key: key, snapshot: banner.snapshot(at: now)))
            }
        }
        return actions
    }

    /// Changes verification, label or elapsed time of a live banner. An
    /// elapsed time re-anchors the timer (`startedAt = now - elapsed`).
    public mutating func update(
        key: String, elapsedSeconds: Int?, verified: Bool, label: String, now: Date
    ) -> [Action] {
        update(
            key: key, elapsedSeconds: elapsedSeconds, badge: VerificationBadge(verified: verified), label: label,
            now: now)
    }

    public mutating func update(
        key: String, elapsedSeconds: Int?, badge: VerificationBadge, label: String, now: Date
    ) -> [Action] {
        guard var banner = banners[key] else { return [] }
        if let elapsedSeconds, banner.phase == .active {
            let start = now.addingTimeInterval(-TimeInterval(max(0, elapsedSeconds)))
            banner.attributes = RelavoiCallAttributes(
                sessionId: banner.attributes.sessionId, proxyNumber: banner.attributes.proxyNumber,
                startedAt: start)
        }
        banner.badge = badge
        banner.label = label
        return show(banner, key: key, now: now)
    }

    /// Moves a ringing banner to active, with its timer running from `startedAt`.
    public mutating func answer(key: String, startedAt: Date, now: Date) -> [Action] {
        guard var banner = banners[key] else { return [] }
        banner.attributes = RelavoiCallAttributes(
            sessionId: banner.attributes.sessionId, proxyNumber: banner.attributes.proxyNumber,
            startedAt: startedAt)
        banner.phase = .active
        return show(banner, key: key, now: now)
    }

    /// Ends a banner per the dismissal policy. `durationSeconds` overrides the
    /// duration measured from `startedAt`. Ending an ended banner again only
    /// applies the new policy.
    public mutating func end(
        key: String, policy: DismissPolicy, durationSeconds: Int? = nil, now: Date
    ) -> [Action] {
        guard var banner = banners[key] else { return [] }
        let duration: Int
        switch banner.phase {
        case .active: duration = durationSeconds ?? Banner.elapsed(from: banner.attributes.startedAt, to: now)
        case .ended(let measured, _): duration = durationSeconds ?? measured
        case .ringing, .missed, .message, .summary: duration = durationSeconds ?? 0
        }
        let closeAt: Date
        switch policy {
        case .immediate:
            banners[key] = nil
            return [.close(key: key), .removed(key: key, byUser: false)]
        case .default:
            closeAt = now.addingTimeInterval(BannerLimits.endedLinger)
        case .after(let date):
            closeAt = min(max(date, now), now.addingTimeInterval(BannerLimits.endedLinger))
        }
        if closeAt <= now {
            banners[key] = nil
            return [.close(key: key), .removed(key: key, byUser: false)]
        }
        banner.phase = .ended(durationSeconds: max(0, duration), closeAt: closeAt)
        if banner.endedAt == nil { banner.endedAt = now }
        return show(banner, key: key, now: now)
    }

    /// The user dismissed the banner from elsewhere (a panel's menu): it
    /// closes on the server and is gone as if dismissed from the tray.
    public mutating func dismiss(key: String) -> [Action] {
        guard let banner = banners.removeValue(forKey: key) else { return [] }
        offScreen.remove(key)
        return [.close(key: key), .removed(key: key, byUser: true)] + released(banner)
    }

    /// Closes and forgets a banner now, whatever its phase.
    public mutating func close(key: String) -> [Action] {
        guard let banner = banners.removeValue(forKey: key) else { return [] }
        offScreen.remove(key)
        return [.close(key: key), .removed(key: key, byUser: false)] + released(banner)
    }

    /// The server closed the banner. Dismissed by the user (reason 2) or
    /// expired by the server: it stays gone and no tick shows it again.
    public mutating func closedByServer(key: String, byUser: Bool) -> [Action] {
        guard let banner = banners.removeValue(forKey: key) else { return [] }
        offScreen.remove(key)
        return [.removed(key: key, byUser: byUser)] + released(banner)
    }

    /// The live calls released when `gone`, a ringing call, went: shown
    /// as before from their next tick.
    private mutating func released(_ gone: Banner) -> [Action] {
        gone.phase == .ringing ? releaseLiveCalls(now: nil) : []
    }

    /// The server expired a banner that was to leave the screen by itself (a
    /// live call while a panel shows it): the call stays (the panel and the
    /// `Calls` property show it), nothing is sent for its ticks, and its next
    /// show, its end, is a new notification.
    public mutating func expiredOffScreen(key: String) -> [Action] {
        if banners[key] != nil { offScreen.insert(key) }
        return []
    }

    /// A banner kept off screen is to show again (the panel that showed its
    /// call went): its ticks are shown from now on.
    public mutating func backOnScreen(key: String) {
        offScreen.remove(key)
    }

    /// Advances time: ticking banners show their elapsed time, banners past
    /// their close time close, and active banners past the 8-hour bound end.
    public mutating func tick(now: Date) -> [Action] {
        var actions: [Action] = []
        for key in banners.keys.sorted() {
            guard let banner = banners[key] else { continue }
            if let closeAt = banner.closeAt, closeAt <= now {
                banners[key] = nil
                actions += [.close(key: key), .removed(key: key, byUser: false)]
            } else if banner.isTicking,
                now.timeIntervalSince(banner.attributes.startedAt) >= BannerLimits.maximumActive
            {
                let limit = Int(BannerLimits.maximumActive)
                actions += end(key: key, policy: .default, durationSeconds: limit, now: now)
            } else if banner.isTicking, !offScreen.contains(key) {
                actions.append(.present(key: key, snapshot: banner.snapshot(at: now)))
            }
        }
        return actions
    }

    /// When `tick` has work next: the moment a ticking banner's elapsed seconds
    /// next turn (its own second, counted from its `startedAt`, as the panel's
    /// timers count from the call's answer) while anything shows them, else its
    /// 8-hour bound; or the earliest close time; nil with nothing to do.
    /// - Parameter liveSecondsShown: a live banner's content shows its running
    ///   timer (`BannerRenderer.liveShowsTimer`); it does only while on screen,
    ///   and not while outrung where `outrungHidesTimer` (`BannerServerView.yieldsToNewerRinging`).
    /// - Parameter secondsWanted: something else that rides on the tick shows
    ///   the live calls' seconds (the tray item while shown).
    public func nextWake(after now: Date, liveSecondsShown: Bool, outrungHidesTimer: Bool, secondsWanted: Bool)
        -> Date?
    {
        var wake: Date? = nil
        for (key, banner) in banners {
            let due: Date?
            if !banner.isTicking {
                due = banner.closeAt
            } else if secondsWanted
                || (liveSecondsShown && !offScreen.contains(key) && !(outrungHidesTimer && banner.outrung))
            {
                due = Self.nextSecond(of: banner.attributes.startedAt, after: now)
            } else {
                due = max(now, banner.attributes.startedAt.addingTimeInterval(BannerLimits.maximumActive))
            }
            if let due, wake == nil || due < wake! { wake = due }
        }
        return wake
    }

    /// The first moment after `now` at which the seconds since `start` turn
    /// (`start` itself when it is still ahead).
    static func nextSecond(of start: Date, after now: Date) -> Date {
        let since = now.timeIntervalSince(start)
        guard since.isFinite, since >= 0 else { return max(start, now) }
        return start.addingTimeInterval((since + 1e-6).rounded(.down) + 1)
    }
}
