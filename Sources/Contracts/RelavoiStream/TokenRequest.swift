import FoundationEssentials
import RelavoiCore

/// The token endpoint's wire form (`POST BASE-URL/auth/token`): the request body and
/// the answer, shared by the stream's token refresh and sign-in's credential check.
package enum TokenRequest {
    /// The `accessToken` of a token answer, and the answer's fields.
    package static func accessToken(in body: [UInt8]) -> (String, [String: JSONValue])? {
        guard case .object(let fields)? = try? JSONValue.parse(utf8: body),
            case .string(let value)? = fields["accessToken"], !value.isEmpty
        else { return nil }
        return (value, fields)
    }

    package static func credentialsBody(apiKey: String, apiSecret: String) -> [UInt8] {
        let object = JSONValue.object(["apiKey": .string(apiKey), "apiSecret": .string(apiSecret)])
        return (try? Array(JSONEncoder().encode(object))) ?? []
    }

    /// `Retry-After` in seconds (the delta form; HTTP dates are ignored).
    package static func retryAfter(_ header: String?) -> Double? {
        guard let header, let seconds = Double(header.trimmingWhitespace()),
            seconds >= 0
        else { return nil }
        return min(seconds, 3600)
    }
}
