import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct CallMachineTests {
    typealias Action = CallMachine.Action
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func machine(_ configure: (inout CallMachine.Settings) -> Void = { _ in }) -> CallMachine {
        var settings = CallMachine.Settings()
        configure(&settings)
        return CallMachine(settings: settings)
    }

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    func details(_ id: String, proxy: String? = "+15550100", label: String? = "Rider", state: String = "ACTIVE")
        -> SessionDetails
    {
        var fields: [String: JSONValue] = ["id": .string(id), "state": .string(state)]
        if let proxy { fields["proxyNumber"] = .string(proxy) }
        if let label { fields["metadata"] = .object(["label": .string(label)]) }
        return SessionDetails(json: .object(fields), labelKey: "label", tenantId: nil)!
    }

    func shows(_ actions: [Action]) -> [(CallMachine.CallView, Bool)] {
        actions.compactMap { if case .show(let view, let rings) = $0 { return (view, rings) } else { return nil } }
    }

    func detailRequest(_ actions: [Action]) -> Int? {
        for case .fetchDetails(_, let request) in actions { return request }
        return nil
    }

    func verifyRequest(_ actions: [Action]) -> Int? {
        for case .verify(_, let request) in actions { return request }
        return nil
    }

    func isBannerAction(_ action: Action) -> Bool {
        switch action {
        case .show, .end, .miss: return true
        default: return false
        }
    }

    // MARK: - The first Notify

    @Test func firstShowWaitsForTheLookupAndCarriesEverything() {
        var m = machine()
        let ring = m.event(.callIncoming(sessionId: "s", callerNumber: "+15550100", ts: at(0)), now: at(0))
        #expect(!ring.contains(where: isBannerAction), "no guess before the server answered")
        let request = try! #require(detailRequest(ring))
        #expect(m.nextWake() == at(0.4))
        let arrived = m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(0.05))
        let shown = shows(arrived)
        #expect(shown.count == 1)
        #expect(shown.first?.0.label == "Rider" && shown.first?.0.badge == .verified)
        #expect(shown.first?.0.proxyNumber == "+15550100")
        #expect(shown.first?.1 == true, "the first ringing Notify rings")
        #expect(m.tick(now: at(0.5)).isEmpty, "the wait is over once shown")
    }

    @Test func aSlowServerGetsTheCheckingBadgeThenTheAnswer() {
        var m = machine()
        let ring = m.event(.callIncoming(sessionId: "s", callerNumber: "+15550100", ts: at(0)), now: at(0))
        let request = detailRequest(ring)!
        let first = shows(m.tick(now: at(0.4)))
        #expect(first.count == 1)
        #expect(first.first?.0.badge == .checking, "never Unverified before the server answered")
        #expect(first.first?.0.proxyNumber == "+15550100", "the number from the stream, not 'unknown'")
        #expect(first.first?.1 == true)
        let later = shows(m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(1.5)))
        #expect(later.map(\.0.badge) == [.verified])
        #expect(later.map(\.1) == [false], "one ring per call")
    }

    @Test func aFailedOrTimedOutLookupIsUnavailableNotUnverified() {
        var m = machine()
        let request = detailRequest(m.event(.callAnswered(sessionId: "s", ts: at(0)), now: at(0)))!
        let failed = shows(m.detailsArrived(sessionId: "s", request: request, details: nil, now: at(0.1)))
        #expect(failed.map(\.0.badge) == [.unavailable])

        var slow = machine()
        _ = slow.event(.callAnswered(sessionId: "t", ts: at(0)), now: at(0))
        #expect(shows(slow.tick(now: at(0.4))).map(\.0.badge) == [.checking])
        #expect(slow.nextWake() == at(5))
        #expect(shows(slow.tick(now: at(5))).map(\.0.badge) == [.unavailable])
        #expect(slow.nextWake() == nil)
    }

    @Test func theUserPhoneVerificationDecidesAndIsAskedInParallel() {
        var m = machine { $0.verifiesByUserPhone = true }
        let asked = m.event(.callAnswered(sessionId: "s", ts: at(0)), now: at(0))
        let details = detailRequest(asked)!
        let verify = verifyRequest(asked)!
        #expect(
            shows(m.detailsArrived(sessionId: "s", request: details, details: self.details("s"), now: at(0.1))).isEmpty,
            "the verification is still out")
        let yes: JSONValue = .object(["verified": .bool(true), "sessionId": .string("s")])
        #expect(
            shows(m.verificationArrived(sessionId: "s", request: verify, answer: yes, now: at(0.2))).map(\.0.badge) == [
                .verified
            ])

        for (answer, badge) in [
            (JSONValue.object(["verified": .bool(false)]), VerificationBadge.unverified),
            (.object(["verified": .bool(true), "sessionId": .string("other")]), .unverified), (nil, .unavailable),
        ] as [(JSONValue?, VerificationBadge)] {
            var n = machine { $0.verifiesByUserPhone = true }
            let actions = n.event(.callAnswered(sessionId: "s", ts: at(0)), now: at(0))
            _ = n.detailsArrived(
                sessionId: "s", request: detailRequest(actions)!, details: self.details("s"), now: at(0))
            let shown = shows(
                n.verificationArrived(sessionId: "s", request: verifyRequest(actions)!, answer: answer, now: at(0)))
            #expect(shown.map(\.0.badge) == [badge])
        }
    }

    @Test func aKnownSessionShowsItsLabelAtOnceAndIsVerifiedAgain() {
        var m = machine { $0.verifiesByUserPhone = true }
        var actions = m.event(.callAnswered(sessionId: "s", ts: at(0)), now: at(0))
        _ = m.detailsArrived(sessionId: "s", request: detailRequest(actions)!, details: details("s"), now: at(0))
        _ = m.verificationArrived(sessionId: "s", request: verifyRequest(actions)!, answer: nil, now: at(0))
        _ = m.event(.callEnded(sessionId: "s", durationSeconds: 3, ts: at(3)), now: at(3))
        actions = m.event(.callIncoming(sessionId: "s", callerNumber: "+15550100", ts: at(10)), now: at(10))
        #expect(detailRequest(actions) == nil, "details are cached")
        #expect(verifyRequest(actions) != nil, "verification is asked again for a new call")
        let first = shows(m.tick(now: at(10.4)))
        #expect(first.first?.0.label == "Rider" && first.first?.0.badge == .checking)
        #expect(first.first?.1 == true, "a new call rings again")
    }

    // MARK: - The ringing sound

    @Test func oneRingPerCall() {
        var m = machine()
        var rings = 0
        func count(_ actions: [Action]) { rings += shows(actions).filter(\.1).count }
        let request = detailRequest(m.event(.callIncoming(sessionId: "s", callerNumber: "+1", ts: at(0)), now: at(0)))!
        count(m.tick(now: at(0.4)))
        count(m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(0.6)))
        count(m.event(.callIncoming(sessionId: "s", callerNumber: "+1", ts: at(1)), now: at(1)))
        count(m.event(.callAnswered(sessionId: "s", ts: at(2)), now: at(2)))
        #expect(rings == 1)
    }

    // MARK: - Stale, out of order, the filter race

    @Test func anAnswerOlderThanTheEndIsStale() {
        var m = machine()
        _ = m.event(.callEnded(sessionId: "s", durationSeconds: 0, ts: at(10)), now: at(10))
        let actions = m.event(.callAnswered(sessionId: "s", ts: at(5)), now: at(11))
        #expect(!actions.contains(where: isBannerAction))
        #expect(!m.isFollowed("s"))
    }

    @Test func aCallThatEndsWhileItsFilterLookupIsInFlightShowsNoLiveBanner() {
        var m = machine { $0.proxyNumbers = ["+15550100"] }
        // call.answered carries no proxy number: the filter must ask the server.
        let asked = m.event(.callAnswered(sessionId: "s", ts: at(0)), now: at(0))
        let request = detailRequest(asked)!
        #expect(!asked.contains(where: isBannerAction))
        #expect(m.tick(now: at(0.4)).isEmpty, "nothing is shown before the filter passed")
        #expect(m.event(.callEnded(sessionId: "s", durationSeconds: 4, ts: at(1)), now: at(1)).isEmpty)
        let arrived = m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(1.5))
        #expect(shows(arrived).isEmpty, "no live banner for a finished call")
        #expect(arrived.contains { if case .end(_, 4, false) = $0 { return true } else { return false } })
        #expect(!m.isFollowed("s"))
    }

    @Test func theFilterLetsOnlyItsNumbersThrough() {
        var m = machine { $0.proxyNumbers = ["+15550100"] }
        let request = detailRequest(m.event(.callAnswered(sessionId: "x", ts: at(0)), now: at(0)))!
        #expect(
            m.detailsArrived(sessionId: "x", request: request, details: details("x", proxy: "+1999"), now: at(0.1))
                .allSatisfy { !isBannerAction($0) })
        #expect(!m.isFollowed("x"))
        _ = m.event(.sessionCreated(sessionId: "y", proxyNumber: "+1999", ts: at(0)), now: at(0))
        #expect(m.event(.callIncoming(sessionId: "y", callerNumber: "+1999", ts: at(1)), now: at(1)).isEmpty)
    }

    @Test func failedAndMissedEndARingingCall() {
        for type in ["call.failed", "call.missed"] {
            var m = machine()
            let request = detailRequest(
                m.event(.callIncoming(sessionId: "s", callerNumber: "+1", ts: at(0)), now: at(0)))!
            _ = m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(0.1))
            let payload: JSONValue = .object(["payload": .object(["sessionId": .string("s")])])
            let actions = m.event(.unknown(type: type, payload: payload), now: at(2))
            #expect(actions.contains { if case .miss = $0 { return true } else { return false } })
            #expect(!m.isFollowed("s"))
        }
    }

    // MARK: - Cap, dismissal, reconcile

    @Test func overTheCapCallsAreCountedAndPromoted() {
        var m = machine { $0.maxBanners = 1 }
        _ = m.event(.callAnswered(sessionId: "a", ts: at(0)), now: at(0))
        let second = m.event(.callAnswered(sessionId: "b", ts: at(0)), now: at(0))
        #expect(second.contains(.summary(count: 1)))
        let dismissed = m.userDismissed("a")
        #expect(dismissed.contains(.summary(count: 0)))
        #expect(shows(dismissed).map(\.0.sessionId) == ["b"], "b takes the free banner at once")
        #expect(
            m.event(.callAnswered(sessionId: "a", ts: at(1)), now: at(1)).allSatisfy { !isBannerAction($0) },
            "a dismissed call is never shown again")
    }

    /// pause-media counts the calls the person is shown: not those the filter keeps out, nor
    /// one whose filter lookup is in flight; those in the summary and dismissed ones, yes.
    @Test func shownCallCountsLeaveOutFilteredCalls() {
        var m = machine {
            $0.proxyNumbers = ["+15550100"]
            $0.maxBanners = 1
        }
        _ = m.event(.sessionCreated(sessionId: "out", proxyNumber: "+1999", ts: at(0)), now: at(0))
        _ = m.event(.callIncoming(sessionId: "out", callerNumber: "+1999", ts: at(0)), now: at(0))
        #expect(m.shownCallCounts == CallPhaseCounts(), "filtered out")
        let request = detailRequest(m.event(.callAnswered(sessionId: "s", ts: at(1)), now: at(1)))!
        #expect(m.shownCallCounts == CallPhaseCounts(), "not yet known to pass the filter")
        _ = m.detailsArrived(sessionId: "s", request: request, details: details("s"), now: at(1.1))
        #expect(m.shownCallCounts == CallPhaseCounts(ringing: 0, answered: 1))
        _ = m.event(.sessionCreated(sessionId: "t", proxyNumber: "+15550100", ts: at(2)), now: at(2))
        _ = m.event(.callIncoming(sessionId: "t", callerNumber: "+15550100", ts: at(2)), now: at(2))
        #expect(m.shownCallCounts == CallPhaseCounts(ringing: 1, answered: 1), "in the summary: counted")
        _ = m.userDismissed("s")
        #expect(m.shownCallCounts == CallPhaseCounts(ringing: 1, answered: 1), "dismissed: the call goes on")
        _ = m.event(.callEnded(sessionId: "s", durationSeconds: 3, ts: at(3)), now: at(3))
        _ = m.event(.unknown(type: "call.missed", payload: .object(["sessionId": .string("t")])), now: at(4))
        #expect(m.shownCallCounts == CallPhaseCounts())
    }

    @Test func theStreamWinsOverAReconcileThatWasUnderWay() {
        var m = machine()
        _ = m.event(.callAnswered(sessionId: "a", ts: at(0)), now: at(0))
        _ = m.event(.callAnswered(sessionId: "b", ts: at(0)), now: at(0))
        let token = m.reconcileBegan()
        _ = m.event(.callEnded(sessionId: "c", durationSeconds: 0, ts: at(1)), now: at(1))
        // a's session is gone on the server; c ended on the stream meanwhile; d was answered while away.
        let ended = m.liveSessionsListed(["b", "c", "d"], token: token)
        #expect(
            ended.contains { if case .end(let view, _, _) = $0 { return view.sessionId == "a" } else { return false } })
        let listed = [
            CallsInProgress.Call(sessionId: "b", answeredAt: at(0)),
            CallsInProgress.Call(sessionId: "c", answeredAt: at(0)),
            CallsInProgress.Call(sessionId: "d", answeredAt: at(-30)),
        ]
        let actions = m.callsInProgressListed(listed, token: token, now: at(2))
        #expect(!m.isFollowed("c"), "ended on the stream during the listing")
        #expect(m.isFollowed("d") && m.isFollowed("b"))
        #expect(m.answeredStarts["d"] == at(-30), "shown from its answer time on the server")
        #expect(!actions.contains { if case .end = $0 { return true } else { return false } })
    }

    /// The listing's end of a call keeps no local end time: with the
    /// server's clock ten minutes behind this machine's, the session's next
    /// real call (server times before the local "now" of that end) still shows.
    @Test func aReconcileEndDoesNotDropTheNextCallUnderClockSkew() {
        var m = machine()
        let skew: Double = -600
        _ = m.event(.callAnswered(sessionId: "s", ts: at(skew)), now: at(0))
        let token = m.reconcileBegan()
        let ended = m.callsInProgressListed([], token: token, now: at(60))
        #expect(
            ended.contains { if case .end(let view, _, _) = $0 { return view.sessionId == "s" } else { return false } })
        let ring = m.event(.callIncoming(sessionId: "s", callerNumber: "+15550100", ts: at(skew + 70)), now: at(70))
        #expect(
            !ring.contains { if case .log(_, let text) = $0 { return text.contains("stale") } else { return false } })
        #expect(m.isFollowed("s"), "the next call in the session is followed")
        let answered = m.event(.callAnswered(sessionId: "s", ts: at(skew + 75)), now: at(75))
        #expect(m.answeredStarts["s"] == at(skew + 75))
        #expect(
            !answered.contains {
                if case .log(_, let text) = $0 { return text.contains("stale") } else { return false }
            })
    }

    @Test func closeAllEndsEveryShownBannerAtOnce() {
        var m = machine()
        let request = detailRequest(m.event(.callAnswered(sessionId: "a", ts: at(0)), now: at(0)))!
        _ = m.detailsArrived(sessionId: "a", request: request, details: details("a"), now: at(0))
        let actions = m.closeAll()
        #expect(actions.contains { if case .end(_, _, true) = $0 { return true } else { return false } })
        #expect(m.followedCount == 0)
    }
}
