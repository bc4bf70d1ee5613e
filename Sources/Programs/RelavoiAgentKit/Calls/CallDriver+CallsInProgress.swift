import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

extension CallDriver {
    /// The one reconcile after every `connected` (run by the session
    /// lifecycle): banners of sessions that ended go first, then calls in
    /// progress are brought in step. Both REST listings (the stream has no
    /// replay); the machine lets what the stream said meanwhile win.
    public func reconcileWithServer(callsInProgress source: CallsInProgressSource) async {
        let token = machine.reconcileBegan()
        await closeBannersOfEndedSessions(token: token)
        await reconcileCallsInProgress(using: source, token: token)
    }

    /// After a reconnect: sessions that ended or expired while the stream was
    /// down lose their banners. A failed listing changes nothing.
    func closeBannersOfEndedSessions(token: CallMachine.ReconcileToken) async {
        guard !token.followed.isEmpty else { return }
        guard let live = await lookup.liveSessionIds() else {
            Log.warning("could not list live sessions after reconnecting; banners stay as they are")
            return
        }
        run(machine.liveSessionsListed(live, token: token))
    }

    /// Calls answered while the stream was down are learnt from
    /// `GET /calls?status=ANSWERED`: their banners show, or are corrected to,
    /// the true answer time; banners of answered calls the server no longer
    /// lists as answered end. A failed listing changes nothing.
    func reconcileCallsInProgress(using source: CallsInProgressSource, token: CallMachine.ReconcileToken) async {
        guard let listed = await source.answeredCalls() else {
            Log.warning("could not list calls in progress after reconnecting; banners stay as they are")
            return
        }
        // The listing may name calls of sessions that have ended since: those
        // not followed are asked about one by one.
        var live: [CallsInProgress.Call] = []
        for call in listed {
            if token.answeredStarts[call.sessionId] == nil, !machine.isFollowed(call.sessionId) {
                guard await source.isLive(sessionId: call.sessionId) else { continue }
            }
            live.append(call)
        }
        run(machine.callsInProgressListed(live, token: token, now: now()))
    }
}
