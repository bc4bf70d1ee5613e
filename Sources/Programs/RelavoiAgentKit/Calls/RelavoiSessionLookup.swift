import RelavoiCore
import RelavoiMachines
import RelavoiStream
import RelavoiStreamEngine

/// `SessionLookup` over the stream's authenticated REST client.
@MainActor
final class RelavoiSessionLookup: SessionLookup {
    /// Weak: the stream holds the agent's listener, which holds the call driver
    /// and so this lookup; the agent owns the stream.
    private weak var stream: StreamConnectionDriver?
    /// Bounds a listing however many pages the server claims.
    private let maximumPages = 1000

    init(stream: StreamConnectionDriver) { self.stream = stream }

    public func session(_ sessionId: String) async -> JSONValue? {
        // One path segment; the REST client percent-encodes it.
        guard !sessionId.isEmpty, !sessionId.contains("/"), sessionId != "..", sessionId != "." else { return nil }
        return await ok(path: "/sessions/\(sessionId)")
    }

    public func verify(userPhone: String) async -> JSONValue? {
        // The REST client percent-encodes query values, `+` included.
        await ok(path: "/sessions/verify", query: ["userPhone": userPhone])
    }

    public func liveSessionIds() async -> Set<String>? {
        var ids: Set<String> = []
        for state in ["ACTIVE", "GRACE_PERIOD"] {
            var cursor: String?
            var pages = 0
            repeat {
                var query = ["state": state, "limit": "100"]
                if let cursor { query["after"] = cursor }
                guard let body = await ok(path: "/sessions", query: query), let page = SessionDetails.page(body) else {
                    return nil
                }
                ids.formUnion(page.ids)
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < maximumPages
        }
        return ids
    }

    private func ok(path: String, query: [String: String] = [:]) async -> JSONValue? {
        guard let stream, let (status, body) = try? await stream.get(path: path, query: query), status == 200 else {
            return nil
        }
        return body
    }
}
