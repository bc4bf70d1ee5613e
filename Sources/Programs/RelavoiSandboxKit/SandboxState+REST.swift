import Foundation
import RelavoiCore

/// The REST side of the contract: `POST /v1/auth/token` and the `GET`s.
extension SandboxState {
    static let maxTokenBody = 64 * 1024

    mutating func handle(_ request: RESTRequest, now: Date) -> RESTResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if parts == ["healthz"] { return RESTResponse(status: 200, body: .object(["status": .string("ok")])) }
        guard parts.first == "v1" else { return .error(404, "not_found", "no such path") }
        let route = Array(parts.dropFirst())
        if route == ["auth", "token"] {
            guard request.method == "POST" else { return methodNotAllowed("POST") }
            return issueToken(request, now: now)
        }
        guard ["sessions", "calls"].contains(route.first ?? "") else {
            return .error(404, "not_found", "no such path")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return methodNotAllowed("GET") }
        restRequestCount += 1
        if let status = options.failREST {
            return .error(status, "sandbox_failure", "failREST is set to \(status)")
        }
        guard let tenant = authorize(request, now: now) else {
            var response = RESTResponse.error(401, "unauthorized", "missing, invalid or expired bearer token")
            response.headers["WWW-Authenticate"] = "Bearer"
            return response
        }
        do throws(Pagination.Failure) {
            return try dispatch(route, request.query, tenant: tenant, now: now)
        } catch .badLimit {
            return .error(400, "bad_request", "limit must be a positive integer")
        } catch {
            return .error(400, "bad_request", "invalid cursor")
        }
    }

    private func dispatch(_ route: [String], _ query: [String: String], tenant: String, now: Date)
        throws(Pagination.Failure) -> RESTResponse
    {
        switch (route.count, route[0]) {
        case (1, "sessions"):
            if let state = query["state"], !SandboxSession.states.contains(state) {
                return .error(400, "bad_request", "unknown state")
            }
            let limit = try Pagination.limit(query["limit"], default: 20, max: 100)
            let page = try sessions.list(tenant: tenant, state: query["state"], limit: limit, after: query["after"])
            return RESTResponse(status: 200, body: page.json(\.restJSON))
        case (2, "sessions") where route[1] == "verify":
            return verify(query["userPhone"], tenant: tenant, now: now)
        case (2, "sessions"):
            guard let session = sessions[route[1]], session.tenantId == tenant else { return sessionNotFound }
            return RESTResponse(status: 200, body: session.restJSON)
        case (3, "sessions") where route[2] == "calls":
            guard let session = sessions[route[1]], session.tenantId == tenant else { return sessionNotFound }
            let filter = CallStore.Filter(tenant: tenant, sessionId: session.id)
            return try listCalls(filter, query)
        case (1, "calls"):
            if let status = query["status"], !SandboxCall.statuses.contains(status) {
                return .error(400, "bad_request", "unknown status")
            }
            var filter = CallStore.Filter(tenant: tenant, sessionId: query["sessionId"], status: query["status"])
            for (key, value) in [("periodStart", query["periodStart"]), ("periodEnd", query["periodEnd"])] {
                guard let value else { continue }
                guard let date = WireTime.parse(value) else { return .error(400, "bad_request", "bad \(key)") }
                if key == "periodStart" { filter.periodStart = date } else { filter.periodEnd = date }
            }
            return try listCalls(filter, query)
        case (2, "calls"):
            guard let call = calls[route[1]], call.tenantId == tenant else {
                return .error(404, "not_found", "call not found")
            }
            return RESTResponse(status: 200, body: call.restJSON)
        default:
            return .error(404, "not_found", "no such path")
        }
    }

    private func listCalls(_ filter: CallStore.Filter, _ query: [String: String]) throws(Pagination.Failure)
        -> RESTResponse
    {
        let limit = try Pagination.limit(query["limit"], default: 50, max: 200)
        return RESTResponse(
            status: 200, body: try calls.list(filter, limit: limit, after: query["after"]).json(\.restJSON))
    }

    private var sessionNotFound: RESTResponse { .error(404, "not_found", "session not found") }

    private func methodNotAllowed(_ allowed: String) -> RESTResponse {
        var response = RESTResponse.error(405, "method_not_allowed", "use \(allowed)")
        response.headers["Allow"] = allowed
        return response
    }

    /// The tenant of a valid `Authorization: Bearer` token.
    func authorize(_ request: RESTRequest, now: Date) -> String? {
        guard let header = request.authorization else { return nil }
        let fields = header.split(separator: " ", maxSplits: 1).map(String.init)
        guard fields.count == 2, fields[0].lowercased() == "bearer" else { return nil }
        return tokens.validate(fields[1].trimmingCharacters(in: .whitespaces), now: now)?.tenantId
    }

    private mutating func issueToken(_ request: RESTRequest, now: Date) -> RESTResponse {
        tokenRequestCount += 1
        if let status = options.failTokenRequests {
            return .error(status, "sandbox_failure", "failTokenRequests is set to \(status)")
        }
        let credentials = Self.credentials(request.body)
        if let wait = rateLimiter.admit(key: credentials?.apiKey ?? "", now: now) {
            var response = RESTResponse.error(429, "rate_limited", "too many token requests")
            response.headers["Retry-After"] = String(Int(wait.rounded(.up)))
            return response
        }
        guard let credentials else {
            return .error(400, "bad_request", "body must be JSON {\"apiKey\": ..., \"apiSecret\": ...}")
        }
        guard credentials.apiKey == options.apiKey, credentials.apiSecret == options.apiSecret else {
            return .error(401, "unauthorized", "invalid API key or secret")
        }
        let token = tokens.issue(
            tenantId: options.tenantId, lifetime: options.tokenLifetime, now: now)
        return RESTResponse(
            status: 200,
            body: .object([
                "accessToken": .string(token),
                "expiresIn": .int(Int(options.tokenLifetime.rounded(.down))),
                "tokenType": .string("Bearer"),
            ]))
    }

    private static func credentials(_ body: Data) -> (apiKey: String, apiSecret: String)? {
        guard !body.isEmpty, body.count <= maxTokenBody, let json = try? JSONText.decode(body),
            let key = json["apiKey"]?.stringValue, let secret = json["apiSecret"]?.stringValue,
            !key.isEmpty, !secret.isEmpty
        else { return nil }
        return (key, secret)
    }

    private func verify(_ phone: String?, tenant: String, now: Date) -> RESTResponse {
        guard let phone, Self.isE164(phone) else {
            return .error(400, "bad_request", "userPhone must be E.164, e.g. %2B14155550100")
        }
        guard
            let session = sessions.verifying(
                phone: phone, tenant: tenant, now: now, window: options.verifyCallWindow)
        else { return RESTResponse(status: 200, body: .object(["verified": .bool(false)])) }
        return RESTResponse(
            status: 200,
            body: .object([
                "verified": .bool(true),
                "sessionId": .string(session.id),
                "proxyNumber": .string(session.proxyNumber),
                "metadata": .object(session.metadata),
            ]))
    }

    /// `+` then 2 to 15 digits, the first not 0.
    static func isE164(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes.count <= 16, bytes[0] == UInt8(ascii: "+"),
            bytes[1] != UInt8(ascii: "0")
        else { return false }
        return bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
