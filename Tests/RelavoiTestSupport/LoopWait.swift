import CGLib
import RelavoiGLib

/// How tests, the bench and the soak wait for something on the GLib loop:
/// the default context turns until the condition holds, and a pause of the
/// whole process (a stopped or starved machine) does not use up the timeout
/// (`WaitDeadline`). The product's own waits use `MainLoop.iterate`, which
/// has no such credit.
public enum LoopWait {
    /// Turns the default context until `done()` is true or `timeout` seconds
    /// pass; returns whether `done()` held.
    @discardableResult
    public static func until(timeout: Double, _ done: () -> Bool) -> Bool {
        MainLoop.installDispatchBridge()
        var deadline = WaitDeadline(timeout: timeout, now: GLibTimer.now())
        while !done() {
            if deadline.hasPassed(now: GLibTimer.now()) { return false }
            let wake = GLibTimer.once(after: 0.05) {}
            g_main_context_iteration(nil, 1)
            wake.cancel()
        }
        return true
    }
}
