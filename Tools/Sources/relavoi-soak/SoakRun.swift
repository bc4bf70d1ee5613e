import CGLib
import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiSandboxKit
import RelavoiTestSupport

/// One soak run: the release agent against an in-process relavoi-sandbox and
/// python3-dbusmock's notification daemon, with a scripted mix of calls,
/// stream reconnects and notification server restarts; then the checks.
@MainActor
final class SoakRun {
    let options: SoakOptions
    private var random: SplitMix64
    private let sandbox = SandboxServer()
    private let mock: NotificationMock
    private var agent: AgentProcess?
    private let started = Date()
    private var log: [String] = []

    // The scripted mix: actions by time (seconds since `started`).
    private var timeline: [(at: Double, action: () -> Void)] = []
    /// Frames held back while the agent is between connections (the server
    /// does not replay), so only the deliberate "lost" events are lost.
    private var held: [() -> Void] = []
    /// The current server's notifications with a timeout: when each was last
    /// shown (its update count then), and the ones it expired.
    private var bannersShown: [UInt32: (updates: Int, at: Double)] = [:]
    private var bannersExpired: Set<UInt32> = []
    private var bannersGeneration = 0
    private var calls: [String: CallPhase] = [:]
    private var callSerial = 0
    private var counts: [String: Int] = [:]
    /// Sessions without calls; from the start of the mix.
    private var fill: SessionFill?
    private var fillStop = 0.0
    /// Event frames sent with a fresh id: the agent's dedupe remembers the last 4096.
    private var eventIdsSent = 0
    /// When the sessions and event ids sent first reached the largest bound.
    private var cachesFullAt: Double?
    /// When the agent first reported as many known sessions as its directory holds.
    private var agentFullAt: Double?

    // Measurements.
    private var samples: [(seconds: Double, stats: ProcessStats)] = []
    private var startStats: ProcessStats?
    private var startTime = 0.0
    private var endStats: ProcessStats?
    private var startIdle: IdleRate?
    private var endIdle: IdleRate?
    private var closedLedgers: [(generation: Int, ledger: NotificationLedger)] = []
    private var restartNotes: [String] = []
    private var failures: [String] = []

    enum CallPhase { case ringing, answered }

    struct IdleRate {
        var wakeupsPerSecond: Double
        var cpuPercent: Double
    }

    init(options: SoakOptions) throws {
        self.options = options
        random = SplitMix64(seed: options.seed)
        mock = try NotificationMock()
    }

    var elapsed: Double { Date().timeIntervalSince(started) }

    private func note(_ text: String) {
        let line = String(format: "[%7.1fs] ", elapsed) + text
        log.append(line)
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    // MARK: - Run

    /// Runs everything; returns whether every check passed.
    func run() throws -> Bool {
        try FileManager.default.createDirectory(atPath: options.outputDirectory, withIntermediateDirectories: true)
        let mix = options.mixSeconds
        note(
            "soak: \(options.minutes) min; mix \(Int(mix)) s with \(options.reconnectCount) reconnects, "
                + "\(options.restartCount) notification server restarts, a call every ~\(options.callInterval) s, "
                + String(format: "%.1f sessions without calls a second", options.fillRate))
        try mock.start()
        try sandbox.start()
        try startAgent()
        defer { stopEverything() }
        guard pump(for: 20, until: { sandbox.liveClientCount > 0 }) else {
            failures.append("the agent did not connect within 20 s")
            return finish()
        }
        note("agent \(agent!.processIdentifier) connected")

        // Warm-up: a few calls, so lazily created things exist before the baseline.
        for index in 0..<3 { scheduleCall(at: elapsed + Double(index) * 2, ring: 1, talk: 3, outcome: .answered) }
        _ = pump(for: SoakOptions.warmUp, until: { false })
        guard waitForBannersClosed(timeout: 20) else { return finish() }
        startIdle = measureIdle()
        startStats = sample("start")
        startTime = elapsed

        // The mix.
        let mixStart = elapsed
        let mixEnd = max(mixStart + 10, options.totalSeconds - SoakOptions.tail)
        scheduleMix(from: mixStart, to: mixEnd)
        fill = SessionFill(rate: options.fillRate, start: mixStart)
        fillStop = mixEnd - 5
        guard pump(for: mixEnd - elapsed, until: { false }) else { return finish() }

        // Drain: no new calls; every call still going ends now.
        timeline.removeAll()
        if !mock.isRunning {
            do { try mock.start() } catch {
                failures.append("starting the notification server for the drain: \(error)")
            }
        }
        note("drain: ending \(calls.count) calls still going")
        fillStop = 0
        for sessionId in fill?.expireAll() ?? [] { send("session.expired", sessionId, [:]) }
        for sessionId in calls.keys.sorted() { endCall(sessionId) }
        _ = pump(for: 2, until: { false })
        guard waitForBannersClosed(timeout: 30) else { return finish() }
        // The run lasts at least SOAK_MINUTES: idle until the end window.
        pump(for: options.totalSeconds - SoakOptions.idleWindow - elapsed, until: { false })
        endIdle = measureIdle()
        endStats = sample("end")
        return finish()
    }

    /// Turns the loop (sandbox, timers) for `seconds`, running due actions;
    /// false if the agent died.
    @discardableResult
    private func pump(for seconds: Double, until done: () -> Bool) -> Bool {
        var nextSample = (samples.last?.seconds ?? 0) + 30
        var nextExpiry = elapsed + 2
        let deadline = elapsed + max(0, seconds)
        var alive = true
        _ = LoopWait.until(timeout: max(0, seconds) + 1) {
            if agent?.isRunning != true {
                alive = false
                return true
            }
            if sandbox.liveClientCount > 0, !held.isEmpty {
                let due = held
                held = []
                for send in due { send() }
            }
            while let first = timeline.first, first.at <= elapsed {
                timeline.removeFirst()
                first.action()
            }
            feedFill()
            if elapsed >= nextExpiry {
                expireBanners()
                nextExpiry = elapsed + 2
            }
            if elapsed >= nextSample, startStats != nil, endStats == nil {
                _ = sample(nil)
                nextSample = elapsed + 30
            }
            return done() || elapsed >= deadline
        }
        if !alive {
            failures.append("the agent exited during the run (status \(agent?.terminationStatus ?? -1))")
            note("agent exited: status \(agent?.terminationStatus ?? -1)")
        }
        return alive
    }

    private func schedule(at time: Double, _ action: @escaping () -> Void) {
        let index = timeline.firstIndex { $0.at > time } ?? timeline.endIndex
        timeline.insert((time, action), at: index)
    }

    /// Closes, as expired, the notifications with a timeout that the server
    /// has shown unchanged for `SoakOptions.bannerTimeout`, as dunst, Plasma
    /// and xfce4-notifyd do; an update starts the timeout again.
    private func expireBanners() {
        guard mock.isRunning else { return }
        if bannersGeneration != mock.generation {
            // A new server numbers its notifications from 1 again.
            bannersGeneration = mock.generation
            bannersShown = [:]
            bannersExpired = []
        }
        for notification in mock.ledger().notifications.values
        where !notification.resident && !notification.closed && !bannersExpired.contains(notification.id) {
            guard let shown = bannersShown[notification.id], shown.updates == notification.updates else {
                bannersShown[notification.id] = (notification.updates, elapsed)
                continue
            }
            if elapsed - shown.at >= SoakOptions.bannerTimeout {
                mock.expire(id: notification.id)
                bannersExpired.insert(notification.id)
                bannersShown[notification.id] = nil
                count("banners expired")
            }
        }
    }

    // MARK: - The mix

    /// The sessions without calls due now, and whether the caches are full.
    private func feedFill() {
        guard var current = fill else { return }
        let due = current.due(now: elapsed, stop: fillStop)
        fill = current
        for sessionId in due.created {
            count("sessions without calls")
            let proxy = "+23490000\(String(format: "%05d", current.created % 7))"
            send("session.created", sessionId, ["proxyNumber": .string(proxy)])
        }
        for sessionId in due.expired { send("session.expired", sessionId, [:]) }
        let bound = SoakOptions.largestBound
        if cachesFullAt == nil, current.created + callSerial >= bound, eventIdsSent >= bound {
            cachesFullAt = elapsed
            note(
                "caches full: \(current.created + callSerial) sessions and \(eventIdsSent) event ids sent "
                    + "(the largest bound: \(bound))")
        }
    }

    private func scheduleMix(from start: Double, to end: Double) {
        let span = end - start
        // Reconnects and restarts evenly spread, restarts half a step off.
        let reconnects = options.reconnectCount
        for index in 0..<reconnects {
            let time = start + span * (Double(index) + 0.3) / Double(reconnects)
            schedule(at: time) { [unowned self] in reconnect(index) }
        }
        let restarts = options.restartCount
        for index in 0..<restarts {
            let time = start + span * (Double(index) + 0.5) / Double(restarts)
            schedule(at: time) { [unowned self] in restartServer(index) }
        }
        // Calls arrive at random until 5 s before the end of the mix; the drain
        // ends the ones still going.
        var time = start + random.exponential(mean: options.callInterval)
        while time < end - 5 {
            let ring = Double.random(in: 1...4, using: &random)
            let talk =
                random.chance(0.05)
                ? Double.random(in: 40...90, using: &random) : Double.random(in: 2...25, using: &random)
            let roll = Double.random(in: 0..<1, using: &random)
            let outcome: CallOutcome = roll < 0.80 ? .answered : roll < 0.92 ? .missed : .unanswered
            scheduleCall(at: time, ring: ring, talk: talk, outcome: outcome)
            time += random.exponential(mean: options.callInterval)
        }
        // Frames the agent must shrug off, every ~15 s.
        var noiseTime = start + 7
        var kind = 0
        while noiseTime < end - 5 {
            let which = kind
            schedule(at: noiseTime) { [unowned self] in noise(which) }
            kind += 1
            noiseTime += 15
        }
        // More calls at once than the mix reaches, early: the tables that
        // follow the calls going keep the capacity of their busiest moment,
        // which the random mix would otherwise reach late in the run.
        for index in 0..<SoakOptions.burstCalls {
            scheduleCall(at: start + 30 + Double(index) * 0.25, ring: 1, talk: 30, outcome: .answered)
        }
    }

    enum CallOutcome { case answered, missed, unanswered }

    private static let labels = [
        "Chowdeck rider", "Bolt driver", "<b>Courier</b>", "Ada \u{202E}evil", "✔ Verified caller", "Ω customer",
        "A very long label that goes on and on and on well past what a banner summary can show on one line",
    ]

    private func scheduleCall(at time: Double, ring: Double, talk: Double, outcome: CallOutcome) {
        callSerial += 1
        let sessionId = SoakIdentifier.make("soak_call_", callSerial)
        let proxy = "+23480000\(String(format: "%05d", callSerial % 100_000))"
        let label = Self.labels[callSerial % Self.labels.count]
        let flat = random.chance(0.2)
        let duplicate = random.chance(0.05)
        let sms = random.chance(0.15)
        let expire = random.chance(0.3)
        schedule(at: time) { [unowned self] in
            sandbox.upsertSession(
                SandboxSession(id: sessionId, proxyNumber: proxy, metadata: ["label": .string(label)], userPhones: []))
            calls[sessionId] = .ringing
            count("calls")
            send("call.incoming", sessionId, ["proxyNumber": .string(proxy)], flat: flat, duplicate: duplicate)
        }
        schedule(at: time + ring) { [unowned self] in
            guard calls[sessionId] == .ringing else { return }
            switch outcome {
            case .answered:
                calls[sessionId] = .answered
                count("answered")
                send(
                    "call.answered", sessionId, ["cpaasSessionId": .string("cp_\(sessionId)")], flat: flat,
                    duplicate: duplicate)
            case .missed:
                calls[sessionId] = nil
                count("missed")
                send("call.missed", sessionId, ["cpaasSessionId": .string("cp_\(sessionId)")])
            case .unanswered:
                calls[sessionId] = nil
                count("unanswered")
                send("call.ended", sessionId, ["durationSeconds": .int(0)])
            }
        }
        guard outcome == .answered else { return }
        if sms {
            schedule(at: time + ring + talk / 2) { [unowned self] in
                guard calls[sessionId] != nil else { return }
                count("sms")
                send("sms.received", sessionId, ["smsRecordId": .string("sms_\(sessionId)")])
            }
        }
        schedule(at: time + ring + max(1, talk)) { [unowned self] in
            guard calls[sessionId] != nil else { return }
            endCall(sessionId)
            if expire {
                schedule(at: elapsed + 1) { [unowned self] in send("session.expired", sessionId, [:]) }
            }
        }
    }

    private func endCall(_ sessionId: String) {
        let answered = calls[sessionId] == .answered
        calls[sessionId] = nil
        count("ended")
        send("call.ended", sessionId, ["durationSeconds": .int(answered ? 10 : 0)])
    }

    private func count(_ key: String) { counts[key, default: 0] += 1 }

    /// One event frame, now or as soon as the agent is connected again.
    private func send(
        _ type: String, _ sessionId: String, _ fields: [String: JSONValue], flat: Bool = false, duplicate: Bool = false
    ) {
        var payload = fields
        payload["sessionId"] = .string(sessionId)
        let deliver = { [unowned self] in
            if flat {
                sandbox.sendFlatEvent(type: type, fields: payload)
            } else {
                eventIdsSent += 1
                let id = sandbox.sendEvent(
                    type: type, payload: payload, id: SoakIdentifier.make("soak_event_", eventIdsSent))
                if duplicate {
                    count("duplicates")
                    sandbox.sendEvent(type: type, payload: payload, id: id)
                }
            }
        }
        if sandbox.liveClientCount > 0 { deliver() } else { held.append(deliver) }
    }

    private func noise(_ kind: Int) {
        count("noise")
        switch kind % 6 {
        case 0: sandbox.send(text: "{not json")
        case 1: sandbox.send(text: String(repeating: "[", count: 5000))
        case 2: sandbox.sendEvent(type: "pool.low_availability", payload: ["available": .int(2)])
        case 3: sandbox.sendEvent(type: "call.answered", payload: ["sessionId": .int(5)])
        case 4: sandbox.sendEvent(type: "call.ended", payload: ["sessionId": .string("soak_never_seen")])
        default:
            sandbox.sendEvent(type: "x.large", payload: ["blob": .string(String(repeating: "x", count: 64 * 1024))])
        }
    }

    /// Alternately an abrupt drop and a 4003 close (the agent fetches a new
    /// token). Every fifth time (the 2nd, 7th, …) a call ends and its session expires while the
    /// agent is away: those frames are lost and reconciling must close the banner.
    private func reconnect(_ index: Int) {
        let lost = index % 5 == 1 ? calls.filter { $0.value == .answered }.keys.sorted().first : nil
        if index % 2 == 0 {
            count("drops")
            sandbox.dropConnections()
        } else {
            count("closes 4003")
            sandbox.close(code: 4003, reason: "token expired")
        }
        if let lost {
            calls[lost] = nil
            count("lost while away")
            sandbox.sendEvent(type: "call.ended", payload: ["sessionId": .string(lost), "durationSeconds": .int(5)])
            sandbox.sendEvent(type: "session.expired", payload: ["sessionId": .string(lost)])
        }
        note(
            "reconnect \(index + 1)/\(options.reconnectCount) (\(index % 2 == 0 ? "drop" : "close 4003")\(lost.map { ", \($0) ended while away" } ?? ""))"
        )
    }

    private func restartServer(_ index: Int) {
        let generation = mock.generation
        let ledger = mock.stop()
        closedLedgers.append((generation, ledger))
        count("server restarts")
        note(
            "notification server \(generation) stopped (\(ledger.notifyCount) Notify, \(ledger.openResident.count) banners on screen)"
        )
        schedule(at: elapsed + 2) { [unowned self] in
            do {
                try mock.start()
            } catch {
                failures.append("restart \(index + 1): \(error)")
                return
            }
            note("notification server \(mock.generation) started; \(calls.count) calls going")
            schedule(at: elapsed + 6) { [unowned self] in
                // Up to max-banners (3) banners, and a summary for the rest.
                let active = calls.count
                let expected = min(active, 3) + (active > 3 ? 1 : 0)
                let shown = mock.ledger().openResident.count
                restartNotes.append(
                    "restart \(index + 1): 6 s later \(shown) banners on the new server for \(active) calls going "
                        + "(expected \(expected))")
            }
        }
    }

    // MARK: - Checks

    /// Waits until every call has ended and no resident notification is
    /// left open on the current server.
    private func waitForBannersClosed(timeout: Double) -> Bool {
        var open: [NotificationLedger.Notification] = []
        var lastCheck = -1.0
        let closed = pump(for: timeout) {
            guard elapsed - lastCheck >= 0.5 else { return false }
            lastCheck = elapsed
            open = mock.ledger().openResident
            return calls.isEmpty && held.isEmpty && open.isEmpty
        }
        guard closed, open.isEmpty, held.isEmpty else {
            failures.append(
                "banners still open after \(Int(timeout)) s: "
                    + open.map { "#\($0.id) \($0.category) \"\($0.summary)\"" }.joined(separator: ", "))
            return false
        }
        return true
    }

    /// Wake-ups and CPU of the agent while nothing happens.
    private func measureIdle() -> IdleRate? {
        guard let pid = agent?.processIdentifier, let before = ProcessStats.read(pid: pid) else { return nil }
        let start = elapsed
        pump(for: SoakOptions.idleWindow, until: { false })
        guard let after = ProcessStats.read(pid: pid) else { return nil }
        let seconds = elapsed - start
        return IdleRate(
            wakeupsPerSecond: Double(after.contextSwitches - before.contextSwitches) / seconds,
            cpuPercent: (after.cpuSeconds - before.cpuSeconds) / seconds * 100)
    }

    private func sample(_ label: String?) -> ProcessStats? {
        guard let pid = agent?.processIdentifier, var stats = ProcessStats.read(pid: pid) else { return nil }
        stats.figures = AgentFigures.fetch()
        samples.append((elapsed, stats))
        if agentFullAt == nil, let known = stats.figures?["known-sessions"], known >= CallMachine.Settings().capacity {
            agentFullAt = elapsed
            note("the agent knows \(known) sessions: its session directory is full")
        }
        if let label { note("\(label): \(stats)") }
        return stats
    }

    // MARK: - Agent

    private func startAgent() throws {
        let home = URL(fileURLWithPath: options.outputDirectory).appendingPathComponent("config")
        try? FileManager.default.removeItem(at: home)
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("relavoi"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let logPath = options.outputDirectory + "/agent.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = try AgentProcess(
            executable: options.agentPath,
            environment: [
                "RELAVOI_BASE_URL": sandbox.baseURL, "RELAVOI_API_KEY": sandbox.options.apiKey,
                "RELAVOI_TENANT_ID": sandbox.options.tenantId, "RELAVOI_API_SECRET": sandbox.options.apiSecret,
            ], configHome: home, logURL: URL(fileURLWithPath: logPath), debugMessages: false)
        try process.start()
        agent = process
    }

    private var stopped = false

    private func stopEverything() {
        guard !stopped else { return }
        stopped = true
        if let agent, agent.isRunning {
            kill(agent.processIdentifier, SIGTERM)
            if !LoopWait.until(timeout: 10, { !agent.isRunning }) {
                failures.append("the agent did not exit within 10 s of SIGTERM")
                agent.stop(timeout: 0)
            } else if agent.terminationStatus != 0 {
                failures.append("the agent exited with status \(agent.terminationStatus) on SIGTERM")
            }
        }
        sandbox.stop()
        mock.stop()
    }

    // MARK: - Report

    private func finish() -> Bool {
        let current = mock.isRunning ? mock.ledger() : nil
        stopEverything()
        var lines: [String] = []
        lines.append("relavoi-soak report (\(Date()))")
        lines.append(
            "duration \(Int(elapsed)) s of \(Int(options.totalSeconds)) s; seed \(options.seed); agent \(options.agentPath)"
        )
        lines.append(
            "mix: " + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        lines.append(
            "stream: \(sandbox.handshakeCount) WebSocket handshakes, \(sandbox.tokenRequestCount) token requests, \(sandbox.restRequestCount) REST calls, \(sandbox.framesSent) frames"
        )
        for (generation, ledger) in closedLedgers {
            lines.append(
                "notification server \(generation): \(ledger.notifyCount) Notify, \(ledger.closeCount) CloseNotification, "
                    + "\(ledger.openResident.count) banners on screen when it was stopped (gone with it)")
        }
        if let current {
            lines.append(
                "notification server \(mock.generation) (last): \(current.notifyCount) Notify, \(current.closeCount) CloseNotification, "
                    + "\(current.openResident.count) banners left open")
        }
        lines += restartNotes
        if let start = startStats, let end = endStats {
            lines.append("start: \(start)")
            lines.append("end:   \(end)")
            let growth = end.rssKiB - start.rssKiB
            lines.append(
                "RSS change \(growth >= 0 ? "+" : "")\(ProcessStats.mib(growth)) MiB; trend over the run \(trend(\.rssKiB)) "
                    + "(reported, not judged)")
            let anonGrowth = end.rssAnonKiB - start.rssAnonKiB
            lines.append(
                "anonymous RSS change \(anonGrowth >= 0 ? "+" : "")\(ProcessStats.mib(anonGrowth)) MiB; "
                    + "trend over the run \(trend(\.rssAnonKiB)); file pages \(trend(\.rssFileKiB))")
            if let heapStart = start.heapInUseKiB, let heapEnd = end.heapInUseKiB {
                let heapGrowth = heapEnd - heapStart
                lines.append(
                    "malloc in use change \(heapGrowth >= 0 ? "+" : "")\(ProcessStats.mib(heapGrowth)) MiB; "
                        + "trend over the run \(trend { $0.heapInUseKiB ?? 0 })")
                lines += judgeMemory()
            } else {
                failures.append("the agent did not answer Diagnostics() at the start or the end")
            }
            if let a = start.mainSources, let b = end.mainSources, let c = start.deliverySources,
                let d = end.deliverySources, b + d > a + c + 2
            {
                failures.append("GLib sources grew from \(a) + \(c) to \(b) + \(d) (main + delivery)")
            }
            if end.fds > start.fds + 2 { failures.append("open fds grew from \(start.fds) to \(end.fds)") }
            if end.threads > start.threads + 2 {
                failures.append("threads grew from \(start.threads) to \(end.threads)")
            }
        } else if failures.isEmpty {
            failures.append("no start/end measurements")
        }
        if let a = startIdle, let b = endIdle {
            lines.append(
                String(
                    format:
                        "idle (%.0f s windows): wake-ups %.2f/s at the start, %.2f/s at the end; CPU %.2f%% / %.2f%%",
                    SoakOptions.idleWindow, a.wakeupsPerSecond, b.wakeupsPerSecond, a.cpuPercent, b.cpuPercent))
            if b.wakeupsPerSecond > a.wakeupsPerSecond + 1 {
                failures.append(
                    "idle wake-ups rose from \(a.wakeupsPerSecond)/s to \(b.wakeupsPerSecond)/s (a leaked timer or source?)"
                )
            }
        }
        lines.append(failures.isEmpty ? "RESULT: passed" : "RESULT: FAILED")
        lines += failures.map { "  - \($0)" }

        let report = lines.joined(separator: "\n") + "\n"
        FileHandle.standardOutput.write(Data(("\n" + report).utf8))
        try? report.write(toFile: options.outputDirectory + "/report.txt", atomically: true, encoding: .utf8)
        try? (log.joined(separator: "\n") + "\n").write(
            toFile: options.outputDirectory + "/timeline.txt", atomically: true, encoding: .utf8)
        let csv =
            [
                "seconds,rss_kib,rss_anon_kib,rss_file_kib,hwm_kib,threads,fds,context_switches,cpu_seconds,"
                    + "heap_in_use_kib,heap_free_kib,main_sources,delivery_sources,known_sessions"
            ]
            + samples.map {
                let s = $0.stats
                let known = s.figures?["known-sessions"].map { Int($0) }
                let agentSide = [s.heapInUseKiB, s.heapFreeKiB, s.mainSources, s.deliverySources, known]
                    .map { $0.map(String.init) ?? "" }.joined(separator: ",")
                return
                    "\(Int($0.seconds)),\(s.rssKiB),\(s.rssAnonKiB),\(s.rssFileKiB),\(s.hwmKiB),\(s.threads),\(s.fds),\(s.contextSwitches),\(s.cpuSeconds),"
                    + agentSide
            }
        try? (csv.joined(separator: "\n") + "\n").write(
            toFile: options.outputDirectory + "/samples.csv", atomically: true, encoding: .utf8)
        return failures.isEmpty
    }

    /// The memory verdict (`MemoryVerdict`), from the first sample `settle`
    /// seconds after the caches were full to the end; from the start
    /// measurement when they were not full early enough for one.
    private func judgeMemory() -> [String] {
        let measured = samples.filter { $0.seconds >= startTime - 1 && $0.stats.heapInUseKiB != nil }
        let full = cachesFullAt.map { $0 + MemoryVerdict.settle }
        var lines = [
            "caches full: \(cachesFullAt.map { "at \(Int($0)) s (sessions and event ids sent)" } ?? "never"); "
                + "the agent's session directory full \(agentFullAt.map { "by the sample at \(Int($0)) s" } ?? "never")"
        ]
        var points = measured
        var since = "since the start"
        if let full, let index = measured.firstIndex(where: { $0.seconds >= full }), index < measured.count - 2 {
            points = Array(measured[index...])
            since = "after the caches were full"
        } else {
            lines.append("  the caches were not full with two samples to spare: judged from the start measurement")
        }
        guard let first = points.first else { return lines }
        lines.append("verdict from the sample at \(Int(first.seconds)) s to the end (\(points.count) samples):")
        let figures: [(MemoryVerdict.Limit, (ProcessStats) -> Int)] = [
            (MemoryVerdict.anonymous, { $0.rssAnonKiB }), (MemoryVerdict.malloc, { $0.heapInUseKiB ?? 0 }),
        ]
        for (limit, kib) in figures {
            let series = points.map { (seconds: $0.seconds, kib: kib($0.stats)) }
            guard let ends = MemoryVerdict.ends(series) else { continue }
            let slope = MemoryVerdict.slope(series).map { String(format: "%+.2f MiB/h", $0) } ?? "n/a"
            lines.append(
                "  \(limit.name) \(ProcessStats.mib(ends.first)) → \(ProcessStats.mib(ends.last)) MiB "
                    + "(\(MemoryVerdict.signedMiB(ends.last - ends.first)) MiB, medians of the first and last "
                    + "\(ends.samples) samples; allowed +\(ProcessStats.mib(limit.allowanceKiB))); "
                    + "trend \(slope) (limit \(limit.trendMiBPerHour) MiB/h, judged over \(Int(MemoryVerdict.minimumTrendMinutes)) min or more)"
            )
            if let failure = MemoryVerdict.failure(limit, series, since: since) { failures.append(failure) }
        }
        return lines
    }

    /// The slope of a figure (KiB) over the samples after the start measurement (least squares), in MiB per hour.
    private func trend(_ kib: (ProcessStats) -> Int) -> String {
        let points = samples.filter { $0.seconds >= startTime - 1 }
        guard let slope = MemoryVerdict.slope(points.map { (seconds: $0.seconds, kib: kib($0.stats)) }) else {
            return "n/a (\(points.count) samples: too short a run)"
        }
        return String(format: "%+.1f MiB/h over %d samples", slope, points.count)
    }
}
