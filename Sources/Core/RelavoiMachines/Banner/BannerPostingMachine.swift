import FoundationEssentials
import RelavoiCore

/// Every banner of the process as posted to the notification server: the
/// banners' lifecycle (`BannerMachine`) and what the server was last sent of
/// each. Pure: methods take the time and return what the driver posts.
///
/// Nothing is posted before a server is known (`serverAppeared`), so the first
/// content a server sees is already adapted to it; a snapshot the server has is
/// not posted again; a new server has none, and gets every banner anew; only a
/// call's first ringing post names the ringing sound, so it never rings twice.
/// What the server, the settings and a panel make of the banners is one value,
/// `serverView`, set by the driver whenever one of them changes.
public struct BannerPostingMachine: Sendable {
    public enum Action: Equatable, Sendable {
        /// Post the banner as `snapshot`, rendered as a change from `previous`
        /// (nil: the server has not shown it, it pops); `rings`: the call's
        /// first ringing post, the one that names the ringing sound.
        case present(key: String, snapshot: BannerSnapshot, previous: BannerSnapshot?, rings: Bool)
        /// Close the banner on the server.
        case close(key: String)
        /// The banner is gone (closed by us, expired, or dismissed by the user).
        case removed(key: String, byUser: Bool)
        /// The server expired the banner's notification as it was to leave the
        /// screen by itself: the call is kept, off screen, until its end shows.
        case keptOffScreen(key: String)
    }

    /// The banners and their lifecycle.
    private var lifecycle = BannerMachine()
    /// Whether a notification server's profile is known: nothing is posted before.
    private var serverKnown = false
    /// What the server was last sent of each banner.
    private var shown: [String: BannerSnapshot] = [:]
    /// Banners whose next ringing post is the call's first.
    private var ringDue: Set<String> = []
    /// Banners kept off screen whose expired notification the server lists
    /// (`closedByServer`'s `listed`).
    private var listed: Set<String> = []
    /// How the server shows the banners now (`setServerView`).
    private(set) var serverView: BannerServerView

    public init(serverView: BannerServerView) {
        self.serverView = serverView
    }

    public var banners: [String: Banner] { lifecycle.banners }

    /// Starts or replaces a banner in any phase. `rings`: a new call starts
    /// ringing (its first ringing post names the sound); a banner shown in
    /// any phase but ringing will not ring.
    public mutating func show(_ banner: Banner, key: String, rings: Bool = false, now: Date) -> [Action] {
        if rings { ringDue.insert(key) } else if banner.phase != .ringing { ringDue.remove(key) }
        return post(lifecycle.show(banner, key: key, now: now))
    }

    /// Shows a banner straight in its ended state, never live: a call that
    /// ended before its banner was ever shown.
    public mutating func showEnded(
        _ banner: Banner, key: String, policy: DismissPolicy, durationSeconds: Int?, now: Date
    ) -> [Action] {
        _ = lifecycle.show(banner, key: key, now: now)
        return post(lifecycle.end(key: key, policy: policy, durationSeconds: durationSeconds, now: now))
    }

    public mutating func update(
        key: String, elapsedSeconds: Int?, verified: Bool, label: String, now: Date
    ) -> [Action] {
        post(lifecycle.update(key: key, elapsedSeconds: elapsedSeconds, verified: verified, label: label, now: now))
    }

    /// A call kept off screen whose expired notification the server lists
    /// (`closedByServer`'s `listed`) shows its end even when `immediate`: only
    /// that end, shown under the listed id and left to the server to expire,
    /// replaces the call's entry there. The banner goes when the server expires
    /// it (a close posted at once would take the place of the end before it is
    /// sent: the delivery driver keeps only the latest post).
    public mutating func end(key: String, policy: DismissPolicy, durationSeconds: Int?, now: Date) -> [Action] {
        let showsEnd = policy == .immediate && listed.contains(key) && lifecycle.offScreen.contains(key)
        return post(
            lifecycle.end(key: key, policy: showsEnd ? .default : policy, durationSeconds: durationSeconds, now: now))
    }

    public mutating func close(key: String) -> [Action] { post(lifecycle.close(key: key)) }

    public mutating func dismiss(key: String) -> [Action] { post(lifecycle.dismiss(key: key)) }

    /// The server closed banner `key`, for `reason` (1 expired, 2 dismissed
    /// by the person, 3 closed by us, 4 other; some servers differ: their
    /// `serverView.dismissalReasons`). Whatever was posted for it since is taken back: it
    /// would stay with the delivery driver and come back on the next server. A
    /// banner that expired as it was to leave the screen by itself
    /// (`serverView.leavesScreenByItself`) keeps its call; any other is gone.
    /// `listed`: the server lists the expired notification, and the delivery
    /// driver shows the banner's next post under its id
    /// (`NotificationDeliveryMachine.closedByServer`; Budgie's Raven).
    public mutating func closedByServer(key: String, reason: Int, listed: Bool, now: Date) -> [Action] {
        if reason == 1, let banner = lifecycle.banners[key],
            serverView.leavesScreenByItself.contains(banner.snapshot(at: now).kind)
        {
            if listed { self.listed.insert(key) } else { self.listed.remove(key) }
            return [.close(key: key)] + post(lifecycle.expiredOffScreen(key: key)) + [.keptOffScreen(key: key)]
        }
        let byUser = serverView.dismissalReasons.contains(reason)
        return [.close(key: key)] + post(lifecycle.closedByServer(key: key, byUser: byUser))
    }

    /// Advances time (`BannerMachine.tick`). A live banner whose only change is
    /// its seconds is not posted unless `serverView.liveShowsTimer` (and it is
    /// not outrung where that hides its timer): its content would be the same.
    public mutating func tick(now: Date) -> [Action] {
        let actions = lifecycle.tick(now: now).filter { action in
            guard case .present(let key, let snapshot) = action, var previous = shown[key],
                !serverView.liveShowsTimer || (snapshot.outrung && serverView.yieldsToNewerRinging),
                snapshot.kind == .active, previous.kind == .active
            else { return true }
            previous.seconds = snapshot.seconds
            return previous != snapshot
        }
        return post(actions)
    }

    /// When `tick` has work next (`BannerMachine.nextWake`).
    public func nextWake(after now: Date, secondsWanted: Bool) -> Date? {
        lifecycle.nextWake(
            after: now, liveSecondsShown: serverView.liveShowsTimer,
            outrungHidesTimer: serverView.yieldsToNewerRinging, secondsWanted: secondsWanted)
    }

    /// A notification server's profile is known; `restarted`: it is a new
    /// server, which has none of the banners (`rerender` then pops them all).
    public mutating func serverAppeared(restarted: Bool) {
        if restarted { shown.removeAll() }
        serverKnown = true
    }

    /// The server's profile, the settings or the panel changed how the server
    /// shows the banners: `view` from now on, and every banner posted again (`rerender`).
    public mutating func setServerView(_ view: BannerServerView, now: Date) -> [Action] {
        serverView = view
        return rerender(now: now)
    }

    /// Every banner posted again, after what it is rendered with changed (Do
    /// Not Disturb, the words; `setServerView` for the rest): one the server has
    /// not shown pops, the others update quietly. A banner whose notification
    /// left the screen by itself stays off it while `serverView` still says so
    /// for its kind (a Do Not Disturb or settings change brings no popup back),
    /// and shows again once not (the panel went).
    public mutating func rerender(now: Date) -> [Action] {
        guard serverKnown else { return [] }
        return lifecycle.banners.keys.sorted().compactMap { key in
            guard let snapshot = lifecycle.banners[key]?.snapshot(at: now) else { return nil }
            if lifecycle.offScreen.contains(key) {
                guard !serverView.leavesScreenByItself.contains(snapshot.kind) else { return nil }
                lifecycle.backOnScreen(key: key)
            }
            let previous = shown[key].map { _ in snapshot }
            return present(key: key, snapshot, previous: previous)
        }
    }

    /// The lifecycle's actions as posts: nothing before a server is known, nor
    /// a snapshot the server already has.
    private mutating func post(_ actions: [BannerMachine.Action]) -> [Action] {
        actions.compactMap { action in
            switch action {
            case .present(let key, let snapshot):
                guard serverKnown, snapshot != shown[key], !onlyOutrung(snapshot, from: shown[key]) else { return nil }
                return present(key: key, snapshot, previous: shown[key])
            case .close(let key):
                return .close(key: key)
            case .removed(let key, let byUser):
                shown[key] = nil
                ringDue.remove(key)
                listed.remove(key)
                return .removed(key: key, byUser: byUser)
            }
        }
    }

    /// The change is only that another call outrang this one, and the
    /// server's view does not post that (`serverView.yieldsToNewerRinging`).
    private func onlyOutrung(_ snapshot: BannerSnapshot, from previous: BannerSnapshot?) -> Bool {
        guard !serverView.yieldsToNewerRinging, var previous else { return false }
        previous.outrung = snapshot.outrung
        return previous == snapshot
    }

    private mutating func present(key: String, _ snapshot: BannerSnapshot, previous: BannerSnapshot?) -> Action {
        shown[key] = snapshot
        let rings = snapshot.kind == .ringing && ringDue.remove(key) != nil
        return .present(key: key, snapshot: snapshot, previous: previous, rings: rings)
    }
}
