import Foundation
import RelavoiTestSupport
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

/// Thousands of random orderings of stream events, lookups (answering,
/// failing, late or never), reconcile listings, user dismissals and time,
/// for a few sessions, with the machine's promises checked after every step.
@Suite struct CallMachineInterleavingTests {
    /// What a person would see: the banner of each session, as the driver
    /// would have drawn it from the actions.
    enum Drawn: Equatable { case ringing, live, over }

    /// The truth the test knows: which calls are open, what the server said.
    struct World {
        var open: [String: Bool] = [:]
        var lastEndTime: [String: Date] = [:]
        var callNumber: [String: Int] = [:]
        var rings: [String: Int] = [:]
        /// The server said yes / no for the session since its current call opened.
        var saidYes: Set<String> = []
        var saidNo: Set<String> = []
        var expired: Set<String> = []
        var expiredAt: [String: Date] = [:]
        var drawn: [String: Drawn] = [:]
        /// Promises broken while drawing.
        var violations: [String] = []
        /// The last steps, for the failure message.
        var trace: [String] = []
        var detailRequests: [(String, Int, Date)] = []
        var verifyRequests: [(String, Int, Date)] = []
        var reconcile: (CallMachine.ReconcileToken, answered: [CallsInProgress.Call], live: Set<String>)?
    }

    static let sessions = ["s0", "s1", "s2", "s3"]
    static let proxies = ["s0": "+1000", "s1": "+1001", "s2": "+1002", "s3": "+1003"]

    @Test(arguments: [false, true]) func randomInterleavingsKeepEveryPromise(verifiesByUserPhone: Bool) {
        for seed in 0..<1500 {
            var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ (verifiesByUserPhone ? 1 : 0))
            let filtered = random.chance(0.4)
            var settings = CallMachine.Settings()
            settings.maxBanners = Int.random(in: 1...3, using: &random)
            settings.verifiesByUserPhone = verifiesByUserPhone
            if filtered { settings.proxyNumbers = ["+1000", "+1001"] }
            var machine = CallMachine(settings: settings)
            var world = World()
            var now = Date(timeIntervalSince1970: 1_800_000_000)
            for step in 0..<80 {
                now = now.addingTimeInterval(Double.random(in: 0..<0.6, using: &random))
                let actions = Self.randomStep(&machine, &world, now: now, random: &random)
                world.trace.append("  actions: \(actions)")
                if world.trace.count > 24 { world.trace.removeFirst(world.trace.count - 24) }
                Self.apply(actions, to: &world)
                if let failure = Self.broken(machine, world) {
                    Issue.record(
                        "seed \(seed) step \(step) (filter \(filtered)): \(failure)\n\(world.trace.joined(separator: "\n"))"
                    )
                    return
                }
            }
            // Let every deadline pass: nothing may stay pending.
            now = now.addingTimeInterval(60)
            Self.apply(machine.tick(now: now), to: &world)
            if let failure = Self.broken(machine, world) {
                Issue.record("seed \(seed) after the deadlines: \(failure)")
                return
            }
            #expect(machine.nextWake() == nil, "seed \(seed): deadlines left")
            #expect(machine.pendingDeadlineCount == 0, "seed \(seed): deadline entries kept after they passed")
            #expect(machine.detailRequests.isEmpty, "seed \(seed): lookups left in flight")
        }
    }

    static func randomStep(
        _ m: inout CallMachine, _ w: inout World, now: Date, random: inout SplitMix64
    ) -> [CallMachine.Action] {
        let sessionId = sessions.randomElement(using: &random)!
        let proxy = proxies[sessionId]!
        // Now and then a frame carries an older time (reordered on the way).
        var ts = random.chance(0.15) ? now.addingTimeInterval(-Double.random(in: 0..<5, using: &random)) : now
        // An expired session has no new calls: only frames reordered from before its expiry.
        if let expiredAt = w.expiredAt[sessionId], ts >= expiredAt { ts = expiredAt.addingTimeInterval(-0.001) }
        let roll = Int.random(in: 0..<100, using: &random)
        w.trace.append("\(now.timeIntervalSince1970) \(sessionId) roll \(roll) ts \(ts.timeIntervalSince1970)")
        switch roll {
        case 0..<14:
            open(&w, sessionId, ts: ts)
            return m.event(
                .callIncoming(sessionId: sessionId, callerNumber: random.chance(0.7) ? proxy : "", ts: ts), now: now)
        case 14..<28:
            open(&w, sessionId, ts: ts)
            return m.event(.callAnswered(sessionId: sessionId, ts: ts), now: now)
        case 28..<38:
            w.open[sessionId] = false
            w.lastEndTime[sessionId] = max(ts, w.lastEndTime[sessionId] ?? ts)
            return m.event(
                .callEnded(sessionId: sessionId, durationSeconds: Int.random(in: 0..<9, using: &random), ts: ts),
                now: now)
        case 38..<43:
            w.open[sessionId] = false
            let type = random.chance(0.5) ? "call.failed" : "call.missed"
            return m.event(.unknown(type: type, payload: .object(["sessionId": .string(sessionId)])), now: now)
        case 43..<46:
            w.open[sessionId] = false
            w.expired.insert(sessionId)
            w.expiredAt[sessionId] = min(ts, w.expiredAt[sessionId] ?? ts)
            w.lastEndTime[sessionId] = max(ts, w.lastEndTime[sessionId] ?? ts)
            return m.event(.sessionExpired(sessionId: sessionId, ts: ts), now: now)
        case 46..<49:
            return m.event(.sessionCreated(sessionId: sessionId, proxyNumber: proxy, ts: ts), now: now)
        case 49..<51:
            return m.event(.smsReceived(sessionId: sessionId, ts: ts), now: now)
        case 51..<66 where !w.detailRequests.isEmpty:
            let index = Int.random(in: 0..<w.detailRequests.count, using: &random)
            let (id, request, _) = w.detailRequests.remove(at: index)
            guard !random.chance(0.1) else { return [] }  // never answers: the bound must apply
            let fails = random.chance(0.2)
            let live = !w.expired.contains(id) && random.chance(0.8)
            let state = live ? "ACTIVE" : "EXPIRED"
            let details = SessionDetails(
                json: .object([
                    "id": .string(id), "state": .string(state), "proxyNumber": .string(proxies[id]!),
                    "metadata": .object(["label": .string("L-\(id)")]),
                ]), labelKey: "label", tenantId: nil)
            if !fails, !m.settings.verifiesByUserPhone { if live { w.saidYes.insert(id) } else { w.saidNo.insert(id) } }
            return m.detailsArrived(sessionId: id, request: request, details: fails ? nil : details, now: now)
        case 66..<76 where !w.verifyRequests.isEmpty:
            let index = Int.random(in: 0..<w.verifyRequests.count, using: &random)
            let (id, request, _) = w.verifyRequests.remove(at: index)
            guard !random.chance(0.1) else { return [] }
            if random.chance(0.2) {
                return m.verificationArrived(sessionId: id, request: request, answer: nil, now: now)
            }
            // The server names a session: this one or another.
            let named = random.chance(0.6) ? id : sessions.randomElement(using: &random)!
            let verified = random.chance(0.7)
            if verified && named == id { w.saidYes.insert(id) } else { w.saidNo.insert(id) }
            let answer: JSONValue = .object(["verified": .bool(verified), "sessionId": .string(named)])
            return m.verificationArrived(sessionId: id, request: request, answer: answer, now: now)
        case 76..<80:
            // The user closes a banner that is on screen.
            guard let shown = w.drawn.first(where: { $0.value != .over })?.key else { return [] }
            w.drawn[shown] = nil
            return m.userDismissed(shown)
        case 80..<85:
            if let (token, answered, live) = w.reconcile {
                w.reconcile = nil
                return m.liveSessionsListed(live, token: token)
                    + m.callsInProgressListed(answered, token: token, now: now)
            }
            // The listings tell the truth when asked (every open call); the
            // stream may change things before they land.
            let answered = sessions.filter { w.open[$0] == true }.map {
                CallsInProgress.Call(sessionId: $0, answeredAt: now.addingTimeInterval(-3))
            }
            let live = Set(sessions.filter { !w.expired.contains($0) })
            w.reconcile = (m.reconcileBegan(), answered, live)
            return []
        default:
            return m.tick(now: now)
        }
    }

    /// A ring or answer opens a call unless it is older than the end already seen.
    static func open(_ w: inout World, _ sessionId: String, ts: Date) {
        if let ended = w.lastEndTime[sessionId], ts <= ended { return }
        if w.open[sessionId] != true {
            w.open[sessionId] = true
            w.callNumber[sessionId, default: 0] += 1
            w.saidYes.remove(sessionId)
            w.saidNo.remove(sessionId)
        }
    }

    static func apply(_ actions: [CallMachine.Action], to w: inout World) {
        for action in actions {
            switch action {
            case .show(let view, let rings):
                if case .ringing = view.phase {
                    w.drawn[view.sessionId] = .ringing
                } else {
                    w.drawn[view.sessionId] = .live
                }
                if rings { w.rings["\(view.sessionId)#\(w.callNumber[view.sessionId, default: 0])", default: 0] += 1 }
                if view.badge == .verified, !w.saidYes.contains(view.sessionId) {
                    w.violations.append("\(view.sessionId) shows Verified without the server's yes")
                }
                if view.badge == .unverified, !w.saidNo.contains(view.sessionId) {
                    w.violations.append("\(view.sessionId) shows Unverified without the server's no")
                }
            case .end(let view, _, _), .miss(let view):
                w.drawn[view.sessionId] = .over
            case .fetchDetails(let sessionId, let request):
                w.detailRequests.append((sessionId, request, Date()))
            case .verify(let sessionId, let request):
                w.verifyRequests.append((sessionId, request, Date()))
            case .summary, .smsBanner, .log:
                break
            }
        }
    }

    /// The first promise broken, if any.
    static func broken(_ m: CallMachine, _ w: World) -> String? {
        if let violation = w.violations.first { return violation }
        for (key, count) in w.rings where count > 1 { return "\(key) rang \(count) times" }
        // What pause-media counts is kept as calls change; it must equal a recount of the book.
        var recount = CallPhaseCounts()
        for call in m.book.calls.values { recount.add(call.phase, 1) }
        if m.shownCallCounts != recount { return "shown calls counted \(m.shownCallCounts), the book holds \(recount)" }
        let open = Set(w.open.filter(\.value).keys)
        for sessionId in m.book.calls.keys where !open.contains(sessionId) {
            return "\(sessionId) is still counted as shown after its call ended"
        }
        for (sessionId, drawn) in w.drawn where drawn != .over {
            if w.open[sessionId] != true { return "\(sessionId) shows \(drawn) after its call ended" }
            if !m.isFollowed(sessionId) {
                return "\(sessionId) shows \(drawn) but the machine forgot it: it would tick forever"
            }
        }
        return nil
    }
}
