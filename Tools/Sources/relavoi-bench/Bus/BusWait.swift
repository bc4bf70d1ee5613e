import CGLib
import RelavoiGLib
import RelavoiTestSupport

/// Waits, turning the GLib loop (the in-process sandbox keeps serving), for
/// what the bus monitor sees. Cursors index the monitor's logs, so each
/// message is looked at once.
enum BusWait {
    static func notify(
        _ monitor: BusMonitor, cursor: inout Int, timeout: Double, where match: (BusMonitor.NotifyCall) -> Bool
    ) -> BusMonitor.NotifyCall? {
        var found: BusMonitor.NotifyCall?
        LoopWait.until(timeout: timeout) {
            for call in monitor.notifies(from: cursor) {
                cursor += 1
                if match(call) {
                    found = call
                    return true
                }
            }
            return false
        }
        return found
    }

    static func close(
        _ monitor: BusMonitor, cursor: inout Int, timeout: Double, from sender: String
    ) -> BusMonitor.CloseCall? {
        var found: BusMonitor.CloseCall?
        LoopWait.until(timeout: timeout) {
            for call in monitor.closes(from: cursor) {
                cursor += 1
                if call.sender == sender {
                    found = call
                    return true
                }
            }
            return false
        }
        return found
    }

    /// The time the server's answer to `call` passed the bus.
    static func reply(_ monitor: BusMonitor, to call: BusMonitor.NotifyCall, timeout: Double) -> UInt64? {
        reply(monitor, sender: call.sender, serial: call.serial, timeout: timeout)
    }

    static func reply(_ monitor: BusMonitor, sender: String, serial: UInt32, timeout: Double) -> UInt64? {
        var found: UInt64?
        LoopWait.until(timeout: timeout) {
            found = monitor.reply(sender: sender, serial: serial)
            return found != nil
        }
        return found
    }

    /// Lets `seconds` pass with the loop turning; `every` runs about every `period` seconds.
    static func pass(_ seconds: Double, period: Double = 0.5, every: () -> Void = {}) {
        let end = Clock.now() + UInt64(seconds * 1e9)
        var next = Clock.now()
        LoopWait.until(timeout: seconds + 1) {
            let now = Clock.now()
            if now >= next {
                every()
                next = now + UInt64(period * 1e9)
            }
            return now >= end
        }
    }

    /// Runs whatever is ready without blocking (lets libsoup write queued frames).
    static func drain(limit: Int = 10_000) {
        var turns = 0
        while turns < limit, g_main_context_iteration(nil, 0) != 0 { turns += 1 }
    }
}

extension BusWait {
    /// Turns the loop until `done` or `timeout`.
    @discardableResult
    static func passUntil(timeout: Double, _ done: () -> Bool) -> Bool {
        LoopWait.until(timeout: timeout, done)
    }
}
