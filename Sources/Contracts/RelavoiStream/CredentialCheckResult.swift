import FoundationEssentials
import RelavoiCore
import RelavoiSoup

/// What the token endpoint said about an API key and secret.
package enum CredentialCheckResult: Equatable, Sendable {
    /// The pair works; the server's access token (a JWT).
    case accepted(accessToken: String)
    /// The server refused the pair (HTTP 400, 401 or 403).
    case refused(status: Int)
    /// HTTP 429: too many token requests for this key.
    case rateLimited(retryAfter: Double?)
    /// The server was reached but gave no usable answer (5xx, no token).
    case serverError(String)
    /// The server was not reached: DNS, TCP, TLS or a timeout.
    case unreachable(String)
}
