import Foundation
import RelavoiCore

/// Issues JWT-shaped access tokens and remembers them: a token is valid only
/// if this issuer handed it out, it has not expired and `expireAll()` has not
/// been called since. The signature segment is 32 random bytes, so a token
/// cannot be forged by guessing; no HMAC is needed as the issuer keeps the list.
struct TokenIssuer {
    struct Grant: Equatable {
        var tenantId: String
        var expiresAt: Date
    }

    private var grants: [String: Grant] = [:]
    private(set) var issuedCount = 0

    /// A new token for `tenantId`, valid for `lifetime` seconds from `now`.
    mutating func issue(tenantId: String, lifetime: TimeInterval, now: Date) -> String {
        purge(now: now)
        issuedCount += 1
        let expiresAt = now.addingTimeInterval(lifetime)
        let header: JSONValue = .object(["alg": .string("HS256"), "typ": .string("JWT")])
        let claims: JSONValue = .object([
            "iss": .string("relavoi-sandbox"),
            "sub": .string(tenantId),
            "tenantId": .string(tenantId),
            "iat": .int(Int(now.timeIntervalSince1970)),
            "exp": .int(Int(expiresAt.timeIntervalSince1970.rounded(.down))),
            "jti": .string(UUID().uuidString.lowercased()),
        ])
        var generator = SystemRandomNumberGenerator()
        let signature = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let token = [
            Base64URL.encode(JSONText.encode(header)),
            Base64URL.encode(JSONText.encode(claims)),
            Base64URL.encode(signature),
        ].joined(separator: ".")
        grants[token] = Grant(tenantId: tenantId, expiresAt: expiresAt)
        return token
    }

    /// The grant behind `token`, if it is still valid at `now`.
    func validate(_ token: String, now: Date) -> Grant? {
        guard let grant = grants[token], grant.expiresAt > now else { return nil }
        return grant
    }

    /// Every token issued so far becomes invalid.
    mutating func expireAll() { grants.removeAll() }

    private mutating func purge(now: Date) {
        if grants.count > 64 { grants = grants.filter { $0.value.expiresAt > now } }
    }
}
