import RelavoiCore
import RelavoiMachines
import RelavoiStream
import RelavoiStreamEngine

/// `GET /calls?status=ANSWERED` and `GET /sessions/{id}` over the stream's REST client.
@MainActor
final class RelavoiCallsInProgressSource: CallsInProgressSource {
    private let stream: StreamConnectionDriver
    /// Bounds a listing however many pages the server claims (200 calls a page).
    private let maximumPages: Int

    init(stream: StreamConnectionDriver, maximumPages: Int = 10) {
        self.stream = stream
        self.maximumPages = maximumPages
    }

    public func answeredCalls() async -> [CallsInProgress.Call]? {
        var calls: [CallsInProgress.Call] = []
        var cursor: String?
        var pages = 0
        repeat {
            var query = ["status": "ANSWERED", "limit": "200"]
            if let cursor { query["after"] = cursor }
            guard let (status, body) = try? await stream.get(path: "/calls", query: query), status == 200,
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
        guard let (status, body) = try? await stream.get(path: "/sessions/\(sessionId)"), status == 200 else {
            return false
        }
        return SessionDetails(json: body, labelKey: "label", tenantId: stream.tenantId)?.isLive ?? false
    }
}
