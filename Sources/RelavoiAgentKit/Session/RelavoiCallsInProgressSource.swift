import RelavoiCore
import RelavoiSDK

/// `GET /calls?status=ANSWERED` and `GET /sessions/{id}` over the SDK's REST client.
@MainActor
public final class RelavoiCallsInProgressSource: CallsInProgressSource {
    private let relavoi: Relavoi
    private let tenantId: String?
    /// Bounds a listing however many pages the server claims (200 calls a page).
    private let maximumPages: Int

    public init(relavoi: Relavoi, tenantId: String?, maximumPages: Int = 10) {
        self.relavoi = relavoi
        self.tenantId = tenantId
        self.maximumPages = maximumPages
    }

    public func answeredCalls() async -> [CallsInProgress.Call]? {
        var calls: [CallsInProgress.Call] = []
        var cursor: String?
        var pages = 0
        repeat {
            var query = ["status": "ANSWERED", "limit": "200"]
            if let cursor { query["after"] = cursor }
            guard let (status, body) = try? await relavoi.get(path: "/calls", query: query), status == 200,
                let page = CallsInProgress.page(body)
            else { return nil }
            calls += page.calls
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < maximumPages
        return calls
    }

    public func isLive(sessionId: String) async -> Bool {
        guard !sessionId.isEmpty, !sessionId.contains("/"), sessionId != "..", sessionId != "." else { return false }
        guard let (status, body) = try? await relavoi.get(path: "/sessions/\(sessionId)"), status == 200 else {
            return false
        }
        return SessionDetails(json: body, labelKey: "label", tenantId: tenantId)?.isLive ?? false
    }
}
