/// What the agent does as the desktop it runs in lives: the system sleeps and
/// resumes (logind's `PrepareForSleep`), the network changes
/// (`GNetworkMonitor`), the stream goes live or is shut down, and the
/// session bus goes away at logout.
///
/// Pure: inputs are method calls (with the monotonic time where it matters),
/// outputs are actions that a driver carries out. No D-Bus, no timers.
///
/// - Before sleep the stream is closed cleanly, then the sleep lock (a logind
///   "delay" inhibitor) is released so the machine may sleep.
/// - After resume the stream connects at once (a fresh start: no backoff from
///   before the sleep), timers are re-rendered from the wall clock, and the
///   next `connected` reconciles calls in progress over REST.
/// - A network change (back up, or a new default route) asks the stream to
///   reconnect now, once the burst of changes settled and at most once per
///   `minimumNetworkReconnectInterval`; while the network is down nothing is
///   added to the stream's own backoff.
/// - When the session bus closes the agent ends; after that, and after a
///   `disconnected` the lifecycle did not ask for (the agent is stopping),
///   nothing else happens.
public struct DesktopLifecycleMachine: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// Network changes come in bursts (link, addresses, routes): act this
        /// long after the first one.
        public var networkSettleDelay: Double = 0.25
        /// However often the network changes, ask for a reconnect at most this often.
        public var minimumNetworkReconnectInterval: Double = 2

        public init() {}
    }

    public enum Phase: Equatable, Sendable {
        case awake
        /// `PrepareForSleep(true)` arrived; the stream is closing.
        case closingForSleep
        /// The stream is closed and the sleep lock released.
        case asleep
        /// The session is over or the agent is stopping: no more actions.
        case ended
    }

    public enum LogLevel: Equatable, Sendable {
        case debug, info, message
    }

    public enum Action: Equatable, Sendable {
        /// Hold logind's sleep "delay" lock (no-op while one is held).
        case takeSleepLock
        /// Let go of the sleep lock, if one is held.
        case releaseSleepLock
        /// Close the stream cleanly; call `streamClosedForSleep()` when done.
        case closeStream
        /// Connect the stream (after resume it was closed for the sleep).
        case openStream
        /// Skip a pending backoff wait, or probe an open socket.
        case reconnectNow
        /// Show every banner's time as of now (the timer may fire late after resume).
        case refreshTimers
        /// Bring banners in step with the server over REST (the stream has no
        /// replay): sessions that ended and calls answered or ended meanwhile.
        case reconcileWithServer
        /// Call `networkTimerFired(now:)` after this many seconds.
        case armNetworkTimer(after: Double)
        case cancelNetworkTimer
        /// Close banners and the stream and end the process (exit status 0).
        case endAgent
        case log(LogLevel, String)
    }

    public let settings: Settings
    public private(set) var phase: Phase = .awake
    /// The network's availability as last reported; nil before the first report.
    public private(set) var networkAvailable: Bool?
    public private(set) var networkTimerArmed = false
    /// Times the system went to sleep and resumed (diagnostics).
    public private(set) var sleeps = 0
    private var lastNetworkReconnect: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    // MARK: Sleep and resume

    /// logind (re)appeared on the system bus.
    public mutating func sleepServiceAppeared() -> [Action] {
        phase == .awake ? [.takeSleepLock] : []
    }

    /// `PrepareForSleep(true)`.
    public mutating func prepareForSleep() -> [Action] {
        switch phase {
        case .awake:
            phase = .closingForSleep
            sleeps += 1
            return cancelNetworkTimer() + [
                .log(.message, "the system is going to sleep: closing the stream"), .closeStream,
            ]
        case .closingForSleep, .asleep:
            return []
        case .ended:
            // Never hold up the sleep of a session that is ending.
            return [.releaseSleepLock]
        }
    }

    /// The stream closed (or gave up closing) after `.closeStream`.
    public mutating func streamClosedForSleep() -> [Action] {
        guard phase == .closingForSleep else { return [] }
        phase = .asleep
        return [.releaseSleepLock]
    }

    /// `PrepareForSleep(false)`. Also handles a resume whose sleep signal was
    /// missed: an open stream is probed instead of reopened.
    public mutating func resumed() -> [Action] {
        guard phase != .ended else { return [] }
        let wasAwake = phase == .awake
        phase = .awake
        let what = wasAwake ? "resumed from a sleep the agent did not see begin" : "resumed from sleep"
        return [
            .log(.message, "\(what): reconnecting now"),
            .releaseSleepLock, .takeSleepLock,
            .refreshTimers, .openStream, .reconnectNow,
        ]
    }

    // MARK: Network

    /// The network monitor's first answer: no action, only remembered.
    public mutating func networkKnown(available: Bool) {
        networkAvailable = available
    }

    /// GNetworkMonitor's `network-changed` or a change of `network-available`.
    public mutating func networkChanged(available: Bool, now: Double) -> [Action] {
        guard phase != .ended else { return [] }
        let was = networkAvailable
        networkAvailable = available
        guard available else {
            let note: [Action] =
                was == false ? [] : [.log(.info, "the network is unavailable; the stream retries on its own schedule")]
            return cancelNetworkTimer() + note
        }
        // Asleep or closing: the resume reconnects anyway.
        guard phase == .awake, !networkTimerArmed else { return [] }
        networkTimerArmed = true
        var delay = settings.networkSettleDelay
        if let last = lastNetworkReconnect {
            delay = max(delay, last + settings.minimumNetworkReconnectInterval - now)
        }
        return [.armNetworkTimer(after: delay)]
    }

    public mutating func networkTimerFired(now: Double) -> [Action] {
        guard networkTimerArmed else { return [] }
        networkTimerArmed = false
        guard phase == .awake, networkAvailable != false else { return [] }
        lastNetworkReconnect = now
        return [.log(.info, "the network changed: reconnecting now"), .reconnectNow]
    }

    // MARK: The stream and the session

    /// Every state the stream publishes.
    public mutating func streamStateChanged(_ state: RelavoiConnectionState) -> [Action] {
        switch (state, phase) {
        case (.connected, .awake):
            return [.reconcileWithServer]
        case (.disconnected, .awake):
            // Not asked for by the lifecycle: the agent is stopping.
            phase = .ended
            return cancelNetworkTimer() + [
                .releaseSleepLock, .log(.debug, "the stream was shut down; session watchers stand down"),
            ]
        default:
            return []
        }
    }

    /// The session bus connection closed: the user logged out.
    public mutating func sessionBusClosed() -> [Action] {
        guard phase != .ended else { return [] }
        phase = .ended
        return cancelNetworkTimer() + [
            .releaseSleepLock,
            .log(.message, "the session bus closed (logout): closing banners and the stream"),
            .endAgent,
        ]
    }

    private mutating func cancelNetworkTimer() -> [Action] {
        guard networkTimerArmed else { return [] }
        networkTimerArmed = false
        return [.cancelNetworkTimer]
    }
}
