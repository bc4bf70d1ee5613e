/// Why a token request failed, as the machine needs to know it.
public enum TokenFailure: Equatable, Sendable {
    /// HTTP 401 or 403: a wrong, revoked or suspended API key or secret. Retried slowly, logged once.
    case unauthorized
    /// HTTP 429: too many token requests.
    case rateLimited(retryAfter: Double?)
    /// Anything else (network, 5xx, bad answer).
    case transient(String)
}
