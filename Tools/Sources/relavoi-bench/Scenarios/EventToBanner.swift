import Foundation
import RelavoiSandboxKit

/// Event to banner: from the sandbox sending a frame to the notification
/// server receiving the agent's `Notify` (seen on the bus), one call at a
/// time, with a bare `Notify` round trip from a minimal client (the D-Bus
/// floor) after each call, on the same server in the same run.
///
/// Each call: session.created; call.incoming (a new banner: timed); the
/// label and badge arrive over REST (a second Notify, awaited); call.answered
/// (the banner turns live: timed, the headline figure); call.ended (closed).
@MainActor
struct EventToBanner {
    struct Result: Codable, Equatable {
        var server: String
        var calls: Int
        var misses: Int
        /// call.answered → Notify received by the server.
        var answered: LatencySummary?
        /// call.answered → the server's reply passed the bus (the banner exists).
        var answeredReply: LatencySummary?
        /// call.incoming (new banner) → Notify received.
        var incoming: LatencySummary?
        /// Bare Notify round trip from a minimal GDBus client.
        var floor: LatencySummary?
    }

    let monitor: BusMonitor
    let floor: FloorClient
    var script: CallScript
    /// The agent's unique bus name, learnt from its first Notify.
    private(set) var agentName: String?

    init(monitor: BusMonitor, floor: FloorClient, script: CallScript) {
        self.monitor = monitor
        self.floor = floor
        self.script = script
    }

    /// `calls` timed calls after `warmUp` untimed ones.
    mutating func run(server: String, calls: Int, warmUp: Int = 20) -> Result {
        var answered: [Double] = []
        var replies: [Double] = []
        var incoming: [Double] = []
        var floorTimes: [Double] = []
        var misses = 0
        for index in 0..<(warmUp + calls) {
            guard let sample = oneCall() else {
                misses += 1
                if misses > 20 && misses > index / 10 { break }  // the agent is not answering; stop early
                continue
            }
            let floorTime = floor.roundTrip()
            guard index >= warmUp else { continue }
            answered.append(sample.answered)
            incoming.append(sample.incoming)
            if let reply = sample.reply { replies.append(reply) }
            if let floorTime { floorTimes.append(floorTime) }
        }
        return Result(
            server: server, calls: answered.count, misses: misses, answered: LatencySummary(answered),
            answeredReply: LatencySummary(replies), incoming: LatencySummary(incoming),
            floor: LatencySummary(floorTimes))
    }

    private struct Sample {
        var incoming: Double
        var answered: Double
        var reply: Double?
    }

    /// Ends a call whose banner was not seen in time, so it holds no banner slot.
    private mutating func abandon(_ call: CallScript.Call) -> Sample? {
        script.send("call.ended", call)
        BusWait.pass(0.2)
        return nil
    }

    private mutating func oneCall() -> Sample? {
        let call = script.newCall()
        var cursor = monitor.notifyCount
        var closeCursor = monitor.closeCount
        script.send("session.created", call)
        let isOurs: (BusMonitor.NotifyCall) -> Bool = { [agentName, floor] in
            $0.sender != floor.uniqueName && (agentName == nil || $0.sender == agentName)
                && $0.body.contains(call.proxyNumber)
        }

        // Ringing: a new banner.
        let ring = script.frame("call.incoming", call)
        let ringStart = Clock.now()
        script.send(ring)
        guard let shown = BusWait.notify(monitor, cursor: &cursor, timeout: 5, where: isOurs) else {
            return abandon(call)
        }
        agentName = shown.sender
        // The label and badge from REST (in the first Notify when the delivery driver
        // coalesced both): wait until shown and answered, so the delivery driver is idle.
        var labelled = shown
        if shown.summary != call.label {
            guard
                let later = BusWait.notify(
                    monitor, cursor: &cursor, timeout: 5, where: { isOurs($0) && $0.summary == call.label })
            else { return abandon(call) }
            labelled = later
        }
        guard BusWait.reply(monitor, to: labelled, timeout: 5) != nil else { return abandon(call) }

        // Answered: the banner goes live (the headline figure).
        let answer = script.frame("call.answered", call)
        let answerStart = Clock.now()
        script.send(answer)
        guard let live = BusWait.notify(monitor, cursor: &cursor, timeout: 5, where: isOurs) else {
            return abandon(call)
        }
        let reply = BusWait.reply(monitor, to: live, timeout: 5)

        script.send("call.ended", call)
        guard let closed = BusWait.close(monitor, cursor: &closeCursor, timeout: 5, from: live.sender),
            BusWait.reply(monitor, sender: closed.sender, serial: closed.serial, timeout: 5) != nil
        else { return nil }
        return Sample(
            incoming: Clock.milliseconds(ringStart, shown.time), answered: Clock.milliseconds(answerStart, live.time),
            reply: reply.map { Clock.milliseconds(answerStart, $0) })
    }
}
