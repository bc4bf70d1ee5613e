import Foundation
import RelavoiCore
import RelavoiMachines

/// The agent's own work per event, without I/O: decode (FrameDecoder),
/// state (SessionDirectory, CallBook, BannerMachine, as the agent's CallDriver
/// drives them) and content (BannerRenderer), timed in a loop.
enum PerEventWork {
    struct Result: Codable, Equatable {
        /// One call.answered envelope frame.
        var decodeNanoseconds: Spread?
        /// Per event of a call's four (created, incoming, answered, ended).
        var stateNanoseconds: Spread?
        /// A timer tick's content (quiet update).
        var renderTickNanoseconds: Spread?
        /// A meaningful change's content (new banner).
        var renderChangeNanoseconds: Spread?
        /// One banner's tick: BannerMachine.tick and the render.
        var tickNanoseconds: Spread?
    }

    static let profile = NotificationServerProfile(name: "dunst", capabilities: ["body", "body-markup", "persistence"])

    static func run(repeats: Int) -> Result {
        var sink = Sink()
        var result = Result()
        let tenant = "5a4d0000-0000-4000-8000-00000000c0de"
        var factory = FrameFactory(tenantId: tenant, prefix: "micro")
        let answered = Array(
            factory.envelope("call.answered", [("sessionId", "ses_micro_1"), ("cpaasSessionId", "cp_1")]).utf8)
        let decoder = FrameDecoder()
        result.decodeNanoseconds = OpTimer.nanosecondsPerOp(iterations: 100_000, repeats: repeats) { _ in
            answered.withUnsafeBytes { bytes in
                if case .event(_, let id)? = try? decoder.decode(utf8: bytes) { sink.take(id?.utf8.count ?? 1) }
            }
        }

        let ids = (0..<1024).map { "ses_\($0)" }
        let keys = ids.map { "call:" + $0 }
        var directory = SessionDirectory()
        var book = CallBook(maxBanners: 3)
        var board = BannerMachine()
        let now = Date()
        result.stateNanoseconds = OpTimer.nanosecondsPerOp(iterations: 50_000, repeats: repeats) { index in
            let slot = index % ids.count
            directory.rememberProxy("+15550001234", for: ids[slot])
            sink.take(book.callChanged(ids[slot], phase: .ringing).count)
            let known = directory[ids[slot]]
            let banner = Banner(
                attributes: RelavoiCallAttributes(
                    sessionId: ids[slot], proxyNumber: known?.proxyNumber ?? "", startedAt: now),
                badge: .checking, label: known?.details?.label ?? "", phase: .ringing)
            sink.take(board.show(banner, key: keys[slot], now: now).count)
            sink.take(book.callChanged(ids[slot], phase: .active(startedAt: now)).count)
            sink.take(board.answer(key: keys[slot], startedAt: now, now: now).count)
            sink.take(book.callFinished(ids[slot]).count)
            sink.take(board.end(key: keys[slot], policy: .immediate, now: now).count)
        }.map { Self.scaled($0, by: 0.25) }

        let renderer = BannerRenderer(profile: profile)
        let live = BannerSnapshot(
            kind: .active, label: "Chowdeck rider", proxyNumber: "+2348000000001", verified: true, seconds: 83)
        var previous = live
        previous.seconds = 82
        result.renderTickNanoseconds = OpTimer.nanosecondsPerOp(iterations: 50_000, repeats: repeats) { _ in
            sink.take(renderer.render(live, previous: previous).body.utf8.count)
        }
        result.renderChangeNanoseconds = OpTimer.nanosecondsPerOp(iterations: 50_000, repeats: repeats) { _ in
            sink.take(renderer.render(live, previous: nil).body.utf8.count)
        }

        var ticking = BannerMachine()
        let start = Date()
        _ = ticking.show(
            Banner(
                attributes: RelavoiCallAttributes(sessionId: "s", proxyNumber: "+2348000000001", startedAt: start),
                verified: true, label: "Chowdeck rider", phase: .active), key: "call:s", now: start)
        var shown: BannerSnapshot?
        result.tickNanoseconds = OpTimer.nanosecondsPerOp(iterations: 50_000, repeats: repeats) { index in
            for case .present(_, let snapshot) in ticking.tick(
                now: start.addingTimeInterval(Double(index % 7200) + 0.01))
            {
                sink.take(renderer.render(snapshot, previous: shown).body.utf8.count)
                shown = snapshot
            }
        }
        if sink.value == 42 { print("") }  // never true; keeps `sink` observable
        return result
    }

    private static func scaled(_ spread: Spread, by factor: Double) -> Spread {
        Spread(spread.runs.map { $0 * factor }) ?? spread
    }
}
