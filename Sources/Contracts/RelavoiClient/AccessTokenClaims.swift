import FoundationEssentials
import Glibc
import RelavoiCore

/// The claims of a JWT access token, read without checking the signature:
/// `login` only wants the tenant id the server put in it, and the server
/// checks the token itself whenever it is used.
package struct AccessTokenClaims: Equatable {
    package let fields: [String: JSONValue]

    /// nil when `token` is not three dot-separated parts with a JSON object
    /// (base64url, padding optional) in the middle.
    package init?(jwt token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecode(parts[1]),
            case .object(let fields)? = try? JSONValue.parse(utf8: Array(payload))
        else { return nil }
        self.fields = fields
    }

    /// The `tenantId` claim, else `tenant_id`, as the server wrote it.
    package var tenantId: String? {
        for name in ["tenantId", "tenant_id"] {
            if case .string(let value)? = fields[name], !value.isEmpty { return value }
        }
        return nil
    }

    package static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        guard !base64.contains("=") || base64.count % 4 == 0 else { return nil }
        if !base64.contains("=") { base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4) }
        return Data(base64Encoded: base64)
    }
}
