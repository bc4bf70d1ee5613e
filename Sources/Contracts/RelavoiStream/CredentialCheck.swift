import FoundationEssentials
import RelavoiCore
import RelavoiSoup

/// One token exchange with nothing started around it: `relavoi-agent login`
/// checks a pair before it saves anything. The secret goes only into the
/// request body, as in the stream's token refresh.
@MainActor
package enum CredentialCheck {
    package static func run(apiKey: String, apiSecret: String, config: RelavoiConfig) async -> CredentialCheckResult {
        do {
            try config.validate()
        } catch {
            return .unreachable("\(error)")
        }
        let session = SoupClientSession(
            noProxy: StreamEndpoint.isLoopback(config.baseURL), timeout: UInt32(max(1, config.requestTimeout)))
        let http = HTTPClient(session: session)
        let url = StreamEndpoint.restURL(base: config.baseURL, path: "auth/token")
        let response: HTTPResponse
        do {
            response = try await http.postJSON(
                url, body: TokenRequest.credentialsBody(apiKey: apiKey, apiSecret: apiSecret),
                headers: [("Accept", "application/json")])
        } catch let error as SoupError {
            return .unreachable(error.message)
        } catch {
            return .unreachable(String(describing: type(of: error)))
        }
        switch response.status {
        case 200..<300:
            guard let (token, _) = TokenRequest.accessToken(in: response.body) else {
                return .serverError("the token answer has no accessToken")
            }
            return .accepted(accessToken: token)
        case 400, 401, 403:
            return .refused(status: response.status)
        case 429:
            return .rateLimited(retryAfter: TokenRequest.retryAfter(response.headers["retry-after"]))
        default:
            return .serverError("the token endpoint answered HTTP \(response.status)")
        }
    }
}
