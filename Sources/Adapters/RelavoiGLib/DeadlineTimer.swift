import FoundationEssentials

/// One one-shot GLib timer set to the next moment something is due (a
/// machine's `nextWake`): re-armed only when the deadline moves, gone while
/// nothing is due, so an idle process has no timer at all.
@MainActor
public final class DeadlineTimer {
    private var timer: GLibTimer?
    /// Seconds on the caller's clock.
    private var deadline: Double?
    /// Fires this long after the deadline (so what is due at it has moved on).
    private let slack: Double
    private let fire: @MainActor () -> Void

    public init(slack: Double, fire: @escaping @MainActor () -> Void) {
        self.slack = slack
        self.fire = fire
    }

    public var isActive: Bool { timer?.isActive == true }

    /// Fires at `wake` (plus the slack), or never with nil.
    public func schedule(at wake: Date?, now: Date) {
        schedule(at: wake?.timeIntervalSinceReferenceDate, now: now.timeIntervalSinceReferenceDate)
    }

    /// The same in seconds on any clock (`wake` and `now` on the same one).
    public func schedule(at wake: Double?, now: Double) {
        guard let wake else { return cancel() }
        if timer?.isActive == true, deadline == wake { return }
        timer?.cancel()
        deadline = wake
        timer = GLibTimer.once(after: max(0, wake - now) + slack) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.timer = nil
                self.deadline = nil
                self.fire()
            }
        }
    }

    public func cancel() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }
}
