import FoundationEssentials

/// One one-shot GLib timer set to the next moment something is due (a
/// machine's `nextWake`): re-armed only when the deadline moves, gone while
/// nothing is due, so an idle process has no timer at all.
@MainActor
public final class DeadlineTimer {
    private var timer: GLibTimer?
    private var deadline: Date?
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
        guard let wake else {
            timer?.cancel()
            timer = nil
            deadline = nil
            return
        }
        if timer?.isActive == true, deadline == wake { return }
        timer?.cancel()
        deadline = wake
        timer = GLibTimer.once(after: max(0, wake.timeIntervalSince(now)) + slack) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.timer = nil
                self.deadline = nil
                self.fire()
            }
        }
    }
}
