import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSDK

extension CallBannerController {
    /// The one reconcile after every `connected` (run by the session
    /// lifecycle): banners of sessions that ended go first, then calls in
    /// progress are brought in step. Both REST listings; the stream has no replay.
    public func reconcileWithServer(
        callsInProgress source: CallsInProgressSource, endedMeanwhile: @MainActor (String) -> Bool = { _ in false }
    ) async {
        await closeBannersOfEndedSessions()
        await reconcileCallsInProgress(using: source, endedMeanwhile: endedMeanwhile)
    }

    /// After a reconnect (resume, network back, a dropped stream): the server
    /// has no replay, so calls answered while the stream was down are learnt
    /// from `GET /calls?status=ANSWERED`. Their banners show, or are
    /// corrected to, the true answer time; banners of answered calls the
    /// server no longer lists as answered end. A failed listing changes nothing.
    ///
    /// - Parameter endedMeanwhile: whether the stream reported the end of the
    ///   session's call (or session) after the listing was asked for; such a
    ///   call is not brought back.
    @discardableResult
    public func reconcileCallsInProgress(
        using source: CallsInProgressSource, now: () -> Date = Date.init,
        endedMeanwhile: @MainActor (String) -> Bool = { _ in false }
    ) async -> CallsInProgress.Plan? {
        let before = answeredStarts
        guard let listed = await source.answeredCalls() else {
            Log.warning("could not list calls in progress after reconnecting; banners stay as they are")
            return nil
        }
        let plan = CallsInProgress.plan(listed: listed, followed: before, now: now())
        for call in plan.answered {
            let sessionId = call.sessionId
            // The listing may name calls of sessions that have ended since.
            if before[sessionId] == nil { guard await source.isLive(sessionId: sessionId) else { continue } }
            guard !endedMeanwhile(sessionId) else { continue }
            let current = answeredStarts[sessionId]
            if let current {
                // The stream told of it meanwhile, or changed it: it knows better than the listing.
                if abs(current.timeIntervalSince(call.answeredAt)) < 1 || current != before[sessionId] { continue }
                Log.info("the call in session \(sessionId) is shown from its answer time on the server")
            } else {
                Log.info("the call in session \(sessionId) was answered while the stream was down")
            }
            handle(.callAnswered(sessionId: sessionId, ts: call.answeredAt))
        }
        for sessionId in plan.ended {
            // Only when nothing changed the call while the listing was under way.
            guard answeredStarts[sessionId] == before[sessionId] else { continue }
            Log.info("the call in session \(sessionId) ended while the stream was down; ending its banner")
            handle(.callEnded(sessionId: sessionId, durationSeconds: 0, ts: now()))
        }
        return plan
    }

    /// Followed calls in the answered phase: session id → the start their banners count from.
    var answeredStarts: [String: Date] {
        var starts: [String: Date] = [:]
        for (sessionId, call) in followedCalls {
            if case .active(let startedAt) = call.phase { starts[sessionId] = startedAt }
        }
        return starts
    }
}
