import FoundationEssentials
import RelavoiCore

/// Errors of the SDK's public calls. Descriptions never contain the API
/// secret or a token.
public enum RelavoiError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A URL breaks the transport policy (plain HTTP/WS to a non-loopback host).
    case insecureURL(String)
    /// The token endpoint answered 401 or 403: wrong, revoked or suspended API key or secret.
    case unauthorized
    /// HTTP 429; `retryAfter` in seconds when the server said.
    case rateLimited(retryAfter: Double?)
    /// Network, TLS or timeout failure.
    case transport(String)
    /// The server answered something unusable.
    case invalidResponse(String)

    public var description: String {
        switch self {
        case .insecureURL(let text): return "insecure URL: \(text)"
        case .unauthorized: return "bad API key or secret (HTTP 401 or 403)"
        case .rateLimited(let after):
            return "rate limited (HTTP 429)" + (after.map { ", retry after \(Int($0)) s" } ?? "")
        case .transport(let text): return "transport error: \(text)"
        case .invalidResponse(let text): return "invalid response: \(text)"
        }
    }
}
