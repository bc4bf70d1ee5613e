import Foundation
import RelavoiCore
import RelavoiProcFS

/// The agent at rest and with live banners ticking every second.
@MainActor
struct LiveBanners {
    let monitor: BusMonitor
    let probe: ProcessProbe
    let agentName: String?

    /// Stream connected, no call.
    func idle(seconds: Double) -> CPUWindow? {
        BusWait.pass(1)  // let the last call's work finish
        return CPUWindow.measure(probe: probe, monitor: monitor, agentName: agentName, banners: 0, seconds: seconds)
    }

    /// `count` answered calls, measured once their banners show label and badge;
    /// `whileShown` runs after the window, before the calls end.
    func live(
        count: Int, seconds: Double, script: inout CallScript, whileShown: () -> Void = {}
    ) -> CPUWindow? {
        var calls: [CallScript.Call] = []
        var cursor = monitor.notifyCount
        for _ in 0..<count {
            let call = script.newCall()
            script.send("session.created", call)
            script.send("call.answered", call)
            calls.append(call)
        }
        // Every banner shown with its label (the REST answer came).
        var labelled = Set<String>()
        let labels = Set(calls.map(\.label))
        _ = BusWait.notify(monitor, cursor: &cursor, timeout: 10) { call in
            if labels.contains(call.summary) { labelled.insert(call.summary) }
            return labelled.count == labels.count
        }
        // Past the first seconds of the call (its pop, the first ticks): the window
        // measures the steady cost of an update.
        BusWait.pass(3.5)
        let window = CPUWindow.measure(
            probe: probe, monitor: monitor, agentName: agentName, banners: calls.count, seconds: seconds)
        whileShown()
        var closeCursor = monitor.closeCount
        for call in calls { script.send("call.ended", call) }
        var closed = 0
        while closed < calls.count, let agentName,
            BusWait.close(monitor, cursor: &closeCursor, timeout: 5, from: agentName) != nil
        {
            closed += 1
        }
        return labelled.count == labels.count ? window : nil
    }
}
