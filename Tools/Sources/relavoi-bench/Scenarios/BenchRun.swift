import Foundation
import RelavoiProcFS
import RelavoiSandboxKit

/// One repetition of the whole benchmark, with a fresh sandbox, fresh
/// notification servers and fresh agents.
@MainActor
struct BenchRun {
    let options: BenchOptions
    let monitor: BusMonitor
    let number: Int
    private let startedAt: UInt64
    private var result: RunResult
    private let logs: String

    init(options: BenchOptions, monitor: BusMonitor, number: Int, startedAt: UInt64) {
        self.options = options
        self.monitor = monitor
        self.number = number
        self.startedAt = startedAt
        result = RunResult(run: number)
        logs = options.logDirectory + "/run\(number)"
        try? FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
    }

    mutating func run() -> RunResult {
        let sandbox = SandboxServer(options: .init(tokenRateLimitPerMinute: 0, trackEvents: false))
        do {
            try sandbox.start()
        } catch {
            fail("sandbox: \(error)")
            return result
        }
        defer { sandbox.stop() }
        for kind in options.servers {
            monitor.clear()
            let server: NotificationServer
            do {
                server = try NotificationServer.start(kind, logDirectory: logs)
            } catch {
                fail("\(kind.rawValue): \(error)")
                continue
            }
            switch kind {
            case .dbusmock: onMock(sandbox: sandbox)
            case .dunst: onDunst(server, sandbox: sandbox)
            }
            server.stop()
        }
        return result
    }

    /// Everything but the second server's latency: the agent's costs and the baseline.
    private mutating func onMock(sandbox: SandboxServer) {
        guard let floor = makeFloor() else { return }
        defer { floor.close() }
        progress("start-up, idle, event→banner on dbusmock, live banners")
        do {
            let (agent, connected) = try Startup.connected(
                binary: options.agentBinary, settings: ["max-banners = 10"], sandbox: sandbox,
                log: logs + "/agent-main.log")
            defer { agent.stop() }
            result.startupConnectedMilliseconds = connected
            guard connected != nil else { return fail("the agent did not connect (see \(logs)/agent-main.log)") }
            BusWait.pass(0.5)
            result.memoryAfterConnect = agent.probe.memory()
            if number == 1 { result.residentByMappingAtConnect = agent.probe.residentByMapping() }

            var e2b = EventToBanner(
                monitor: monitor, floor: floor, script: CallScript(sandbox: sandbox, tag: "r\(number)"))
            _ = e2b.run(server: "warm-up", calls: 0, warmUp: 20)
            let banners = LiveBanners(monitor: monitor, probe: agent.probe, agentName: e2b.agentName)
            result.idle = banners.idle(seconds: options.idleSeconds)
            let latency = e2b.run(server: NotificationServer.Kind.dbusmock.rawValue, calls: options.calls)
            result.eventToBanner.append(latency)
            var script = e2b.script
            result.oneBanner = banners.live(count: 1, seconds: options.windowSeconds, script: &script)
            result.tenBanners = banners.live(count: 10, seconds: options.windowSeconds, script: &script)
            if number == 1 { result.residentByMapping = agent.probe.residentByMapping() }
            if result.idle == nil || result.oneBanner == nil || result.tenBanners == nil {
                fail("a CPU window did not complete (see \(logs)/agent-main.log)")
            }
        } catch {
            fail("agent: \(error)")
        }

        progress("notify-send baseline (\(options.notifySendUpdates) updates, one a second)")
        result.notifySend = NotifySendBaseline.run(updates: options.notifySendUpdates, logDirectory: logs)
        if result.notifySend == nil { fail("notify-send baseline did not run (is libnotify-bin installed?)") }
        progress("reference client (one async Notify a second)")
        result.referenceClient = ReferenceTicker.measure(
            banners: 1, seconds: options.windowSeconds, monitor: monitor, log: logs + "/ticker.log")
        if result.referenceClient == nil { fail("the reference client did not run (see \(logs)/ticker.log)") }

        progress("10,000 sessions and the firehose (\(options.firehoseFrames) frames)")
        tenantLoad(sandbox: sandbox)

        progress("--demo start-up")
        do {
            result.startupDemoBannerMilliseconds = try Startup.demoFirstBanner(
                binary: options.agentBinary, monitor: monitor, exclude: floor.uniqueName, log: logs + "/agent-demo.log")
            if result.startupDemoBannerMilliseconds == nil {
                fail("--demo showed no banner (see \(logs)/agent-demo.log)")
            }
        } catch {
            fail("--demo: \(error)")
        }
    }

    private mutating func tenantLoad(sandbox: SandboxServer) {
        do {
            let proxies = FirehoseFrames.followedProxies.joined(separator: ",")
            let (agent, connected) = try Startup.connected(
                binary: options.agentBinary, settings: ["proxy-numbers = \(proxies)"], sandbox: sandbox,
                log: logs + "/agent-tenant.log")
            defer { agent.stop() }
            guard connected != nil else { return fail("the tenant agent did not connect") }
            var load = TenantLoad(monitor: monitor, sandbox: sandbox, probe: agent.probe)
            result.sessions = load.sessions(count: options.sessions)
            // Several rounds a run, each with frames of its own: the figure varies
            // with how many frames each wakeup reads, which the rounds show.
            for round in 1...RunResult.firehoseRoundCount {
                let frames = FirehoseFrames(
                    count: options.firehoseFrames, tenantId: sandbox.options.tenantId, round: round)
                guard let figures = load.firehose(frames) else { break }
                result.firehoseRounds.append(figures)
            }
            result.firehose =
                result.firehoseRounds.sorted { $0.framesPerCPUSecond < $1.framesPerCPUSecond }
                .dropFirst(result.firehoseRounds.count / 2).first
            if result.sessions == nil || result.firehose == nil { fail("tenant load did not complete (see \(logs))") }
        } catch {
            fail("tenant agent: \(error)")
        }
    }

    /// Event to banner on dunst, then dunst's own memory with 10 of the agent's banners shown.
    private mutating func onDunst(_ server: NotificationServer, sandbox: SandboxServer) {
        let kind = server.kind
        guard let floor = makeFloor() else { return }
        defer { floor.close() }
        progress("event→banner on \(kind.rawValue), its memory with 10 banners")
        do {
            let (agent, connected) = try Startup.connected(
                binary: options.agentBinary, settings: ["max-banners = 10"], sandbox: sandbox,
                log: logs + "/agent-\(kind.rawValue).log")
            defer { agent.stop() }
            guard connected != nil else { return fail("the agent did not connect on \(kind.rawValue)") }
            var e2b = EventToBanner(
                monitor: monitor, floor: floor, script: CallScript(sandbox: sandbox, tag: "r\(number)\(kind.rawValue)"))
            result.eventToBanner.append(e2b.run(server: kind.rawValue, calls: options.calls))
            guard let pid = server.serverPid else { return fail("no \(kind.rawValue) process to measure") }
            let banners = LiveBanners(monitor: monitor, probe: agent.probe, agentName: e2b.agentName)
            var script = e2b.script
            let shown = banners.live(count: 10, seconds: 1, script: &script) {
                result.dunstTenShown = ProcessProbe(pid: pid).memory()
            }
            if shown == nil || result.dunstTenShown == nil { fail("\(kind.rawValue) with 10 banners was not measured") }
        } catch {
            fail("agent on \(kind.rawValue): \(error)")
        }
        windowStartup(server)
    }

    /// relavoi-window started once on dunst's display, the agent stopped.
    private mutating func windowStartup(_ server: NotificationServer) {
        guard let display = server.display else { return }
        progress("relavoi-window start-up to its first frame")
        guard FileManager.default.isExecutableFile(atPath: options.windowBinary) else {
            return fail("no relavoi-window at \(options.windowBinary)")
        }
        do {
            result.windowFirstFrameMilliseconds = try WindowStartup.firstFrameMilliseconds(
                binary: options.windowBinary, display: display, log: logs + "/window.log")
            if result.windowFirstFrameMilliseconds == nil {
                fail("relavoi-window drew no frame (see \(logs)/window.log)")
            }
        } catch {
            fail("relavoi-window: \(error)")
        }
    }

    private mutating func makeFloor() -> FloorClient? {
        do {
            return try FloorClient()
        } catch {
            fail("floor client: \(error)")
            return nil
        }
    }

    private mutating func fail(_ message: String) {
        result.failures.append(message)
        FileHandle.standardError.write(Data("relavoi-bench: run \(number): \(message)\n".utf8))
    }

    private func progress(_ message: String) {
        let elapsed = Int(Clock.seconds(since: startedAt).rounded())
        FileHandle.standardError.write(
            Data("relavoi-bench: [\(elapsed) s] run \(number)/\(options.runs): \(message)\n".utf8))
    }
}
