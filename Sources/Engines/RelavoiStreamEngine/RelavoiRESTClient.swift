import FoundationEssentials
import RelavoiCore
import RelavoiMachines
import RelavoiSoup
import RelavoiStream

/// The Relavoi REST API as the agent reads it: `GET {baseURL}/{path}` with
/// the stream's bearer token, renewed once on 401.
@MainActor
final class RelavoiRESTClient {
    private let baseURL: URL
    private let http: HTTPClient
    private let tokens: TokenProvider
    /// Takes the secret out of transport error texts before they leave here.
    private let scrubber: SecretScrubber

    init(baseURL: URL, http: HTTPClient, tokens: TokenProvider, scrubber: SecretScrubber) {
        self.baseURL = baseURL
        self.http = http
        self.tokens = tokens
        self.scrubber = scrubber
    }

    /// An authenticated `GET {baseURL}/{path}?{query}`; on 401 the token is
    /// renewed once and the call repeated. The body is the parsed JSON,
    /// `.null` when empty, `.string` when not JSON. Throws `RelavoiError`
    /// for transport failures and bad credentials; any other HTTP status is
    /// returned.
    func get(path: String, query: [String: String]) async throws -> (status: Int, body: JSONValue) {
        let url = StreamEndpoint.restURL(base: baseURL, path: path, query: query)
        var token = try await tokens.token()
        var response = try await authorizedGet(url, token: token)
        if response.status == 401 {
            tokens.invalidate(token)
            token = try await tokens.token(fresh: true)
            response = try await authorizedGet(url, token: token)
        }
        return (response.status, Self.parseBody(response.body))
    }

    private func authorizedGet(_ url: String, token: String) async throws -> HTTPResponse {
        do {
            return try await http.get(
                url, headers: [("Authorization", "Bearer " + token), ("Accept", "application/json")])
        } catch let error as SoupError {
            if error.isCancelled { throw CancellationError() }
            // The bearer token too, as the stream scrubs its socket's (it is the same token).
            var scrubber = scrubber
            scrubber.socketToken = token
            throw RelavoiError.transport(scrubber.scrub(error.message))
        }
    }

    static func parseBody(_ body: [UInt8]) -> JSONValue {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .null }
        if let value = try? JSONValue.parse(utf8: body) { return value }
        return .string(String(decoding: body, as: UTF8.self))
    }
}
