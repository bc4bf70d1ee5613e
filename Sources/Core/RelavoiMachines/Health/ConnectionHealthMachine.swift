import FoundationEssentials
import RelavoiCore

/// Decides what the person is told about the link to Relavoi: connected,
/// reconnecting (not news), offline since a time, refused, or not set up.
///
/// Pure: every input carries the wall-clock `now`; the actions ask a driver
/// to publish the state, show, update or close the one notice, and arm the one
/// timer that calls `tick(now:)`. Every input ends in the same decision (what
/// is told now), so one small `Action` type serves them all.
///
/// - An outage begins when the stream stops being connected and ends only when
///   a connection has held for `settle`. A shorter connection does not end it:
///   flapping is one outage, told at most once, never shown and closed over
///   and over.
/// - Offline is told once the stream has been down for `offlineAfter` of the
///   outage; refused and not set up are told at once.
/// - A told problem stays until a connection has held for `settle`, or until
///   another kind of problem takes its place: then the one notice is updated
///   in place, never stacked or repeated.
public struct ConnectionHealthMachine: Sendable, Equatable {
    // MARK: Timing (all of it)

    /// How long the stream must be down before offline is told, by default
    /// (`ConnectionHealth.offlineAfter`).
    public static let offlineAfter = ConnectionHealth.offlineAfter
    /// How long a connection must hold to end an outage and clear what was told:
    /// short, so a fix clears within seconds of the reconnect; not zero, so a
    /// connection that drops at once is not taken for a fix.
    public static let settle: TimeInterval = 5
    /// An input this long past the armed deadline means the clock jumped
    /// (suspend and resume, or the clock was set); a busy loop is never this late.
    public static let clockJumpTolerance: TimeInterval = 30

    public enum Action: Equatable, Sendable {
        /// The told state changed: the D-Bus property, the panel and `ctl status` show it.
        case publish(ConnectionHealth)
        /// Show the one connection notice (none is shown).
        case showNotice(ConnectionNotice)
        /// Replace the shown notice's content in place (the same notification).
        case updateNotice(ConnectionNotice)
        case closeNotice
        /// Call `tick(now:)` at this time; replaces any timer armed before.
        case armTimer(at: Date)
        case cancelTimer
    }

    private enum Link: Equatable, Sendable {
        case down
        /// Connected since then, not yet for `settle`.
        case up(since: Date)
        /// Connected for at least `settle`.
        case settled
    }

    private struct Outage: Equatable, Sendable {
        /// When the connection was lost: what "offline since" shows.
        var since: Date
        /// Where the count toward `offlineAfter` starts: the loss, or later
        /// after a clock jump or new credentials.
        var countingFrom: Date
    }

    /// What is told now (published, and the notice when it is a problem).
    public private(set) var current: ConnectionHealth
    /// When `tick(now:)` is due; nil when nothing changes with time alone.
    public private(set) var nextDeadline: Date?
    private var link = Link.down
    private var outage: Outage?
    private var refusedSince: Date?
    private var notSetUp = false
    private var lastNow: Date
    /// `offlineAfter` unless agent.conf's `offline-notice-after` says otherwise.
    private let offlineDelay: TimeInterval

    /// At start the stream is not connected yet, which counts as an outage from
    /// `now`. The driver publishes `current` and arms its timer for
    /// `nextDeadline` once; after that every input says what changed.
    /// `offlineAfter`: the default, or the `offline-notice-after` setting.
    public init(now: Date, offlineAfter: TimeInterval = ConnectionHealthMachine.offlineAfter) {
        offlineDelay = offlineAfter
        outage = Outage(since: now, countingFrom: now)
        current = .reconnecting(since: now)
        lastNow = now
        nextDeadline = deadline(now)
    }

    // MARK: Inputs

    /// Every state the stream publishes; `connecting` and `disconnected` both mean down.
    public mutating func streamStateChanged(_ state: RelavoiConnectionState, now: Date) -> [Action] {
        noteTime(now)
        switch state {
        case .connected:
            if link == .down { link = .up(since: now) }
        case .connecting, .disconnected:
            link = .down
            if outage == nil { outage = Outage(since: now, countingFrom: now) }
        }
        return decide(now)
    }

    /// HTTP 401 or 403 from the token endpoint. Ignored while connected: that
    /// connection's token was accepted, and a revoked key ends it soon enough.
    public mutating func tokenRefused(now: Date) -> [Action] {
        noteTime(now)
        if link == .down, refusedSince == nil { refusedSince = now }
        return decide(now)
    }

    /// The agent has no API key, tenant or secret (known at start).
    public mutating func credentialsMissing(now: Date) -> [Action] {
        noteTime(now)
        notSetUp = true
        return decide(now)
    }

    /// New credentials were loaded (after `relavoi-agent login`). What was told
    /// stays until a connection holds, so a fix that works clears once, and one
    /// that is refused again updates nothing; the new credentials get a full
    /// `offlineAfter` before an unreachable server is told instead.
    public mutating func credentialsChanged(now: Date) -> [Action] {
        noteTime(now)
        notSetUp = false
        refusedSince = nil
        outage?.countingFrom = now
        return decide(now)
    }

    /// The driver's timer, armed for `nextDeadline`, fired.
    public mutating func tick(now: Date) -> [Action] {
        noteTime(now)
        return decide(now)
    }

    // MARK: Deciding

    /// Clock jumps. GLib's timers count monotonic time, which stands still
    /// during suspend, so after a resume the timer fires late against `now`;
    /// time asleep is no evidence that the server is unreachable (the agent
    /// reconnects on resume). So when an input comes more than
    /// `clockJumpTolerance` past the armed deadline, or time went backwards,
    /// the counts restart from `now`: toward offline (whose `since` stays the
    /// loss) and toward a connection's `settle`.
    private mutating func noteTime(_ now: Date) {
        let late = nextDeadline.map { now > $0 + Self.clockJumpTolerance } ?? false
        if now < lastNow || late {
            outage?.countingFrom = now
            if case .up = link { link = .up(since: now) }
        }
        lastNow = now
    }

    private mutating func decide(_ now: Date) -> [Action] {
        if case .up(let since) = link, now >= since + Self.settle {
            // A connection that held: the outage is over and the credentials work.
            link = .settled
            outage = nil
            refusedSince = nil
            notSetUp = false
        }
        var actions: [Action] = []
        let target = target(now)
        if !keepsCurrent(over: target), target != current {
            actions.append(.publish(target))
            switch (current.notice, target.notice) {
            case (nil, let notice?): actions.append(.showNotice(notice))
            case (.some, nil): actions.append(.closeNotice)
            case (let old?, let new?) where old != new: actions.append(.updateNotice(new))
            default: break
            }
            current = target
        }
        let deadline = deadline(now)
        if deadline != nextDeadline {
            nextDeadline = deadline
            actions.append(deadline.map { .armTimer(at: $0) } ?? .cancelTimer)
        }
        return actions
    }

    /// What the causes say now, before the rule that a told problem holds.
    private func target(_ now: Date) -> ConnectionHealth {
        if notSetUp { return .notSetUp }
        if let refusedSince { return .refused(since: refusedSince) }
        guard let outage else { return .connected }
        // While a connection is up, give it its `settle` before telling offline.
        if link == .down, now >= outage.countingFrom + offlineDelay { return .offline(since: outage.since) }
        return .reconnecting(since: outage.since)
    }

    /// A told problem gives way only to connected or to another kind of problem.
    private func keepsCurrent(over target: ConnectionHealth) -> Bool {
        guard let told = current.notice else { return false }
        switch target {
        case .connected: return false
        case .reconnecting: return true
        case .offline, .refused, .notSetUp: return target.notice?.kind == told.kind
        }
    }

    private func deadline(_ now: Date) -> Date? {
        switch link {
        case .up(let since):
            return since + Self.settle
        case .settled:
            return nil
        case .down:
            guard case .reconnecting = target(now), let outage else { return nil }
            return outage.countingFrom + offlineDelay
        }
    }
}
