import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiI18n
import RelavoiSettings
import RelavoiStream

/// `relavoi-agent login`'s rules as the window applies them: the same shapes
/// (`CredentialShape`, no `--force`), the same phone rule (E.164 once spaces and
/// dashes are gone), the same check with the token endpoint; each problem worded for
/// the field it belongs to.
package enum SignInRules {
    package static func key(_ raw: String) -> Result<String, SignInProblem> {
        let key = raw.trimmingWhitespace()
        if key.isEmpty { return .failure(SignInProblem(.apiKey, L("Type or paste your API key."))) }
        switch CredentialShape.checkKey(key) {
        case .ok: return .success(key)
        case .invalid where key.hasPrefix("rs_"), .unusual where key.hasPrefix("rs_"):
            return .failure(SignInProblem(.apiKey, L("This is the API secret. The API key starts with rk_.")))
        case .invalid, .unusual:
            return .failure(
                SignInProblem(
                    .apiKey,
                    L("This is not an API key: it starts with rk_live_ or rk_test_. Copy it again from the dashboard."))
            )
        }
    }

    package static func secret(_ raw: String) -> Result<String, SignInProblem> {
        let secret = raw.trimmingWhitespace()
        if secret.isEmpty { return .failure(SignInProblem(.apiSecret, L("Type or paste your API secret."))) }
        switch CredentialShape.checkSecret(secret) {
        case .ok: return .success(secret)
        case .invalid where secret.hasPrefix("rk_"), .unusual where secret.hasPrefix("rk_"):
            return .failure(SignInProblem(.apiSecret, L("This is the API key. The API secret starts with rs_.")))
        case .invalid, .unusual:
            return .failure(
                SignInProblem(
                    .apiSecret, L("This is not an API secret: it starts with rs_. Copy it again from the dashboard.")))
        }
    }

    /// The number to save (nil: none given).
    package static func phone(_ raw: String) -> Result<String?, SignInProblem> {
        let number = LoginTarget.normalizedPhone(raw.trimmingWhitespace())
        if number.isEmpty { return .success(nil) }
        guard AgentSettings.isE164(number) else { return .failure(badNumber) }
        return .success(number)
    }

    package static var badNumber: SignInProblem {
        SignInProblem(
            .phone, L("This is not a phone number. Type it with + and the country code, such as +234 800 000 0001."))
    }

    /// What the token endpoint said, as the person reads it; the token when the pair works.
    package static func answer(_ result: CredentialCheckResult, server: String) -> Result<String, SignInProblem> {
        switch result {
        case .accepted(let token): return .success(token)
        case .refused:
            return .failure(
                SignInProblem(
                    .apiSecret,
                    L("Relavoi did not accept this API key and secret. Copy both again from the Relavoi dashboard.")))
        case .rateLimited:
            return .failure(
                SignInProblem(.general, L("Too many tries with this API key. Wait a minute, then sign in again.")))
        case .serverError:
            return .failure(
                SignInProblem(
                    .general, L("The Relavoi server could not check the key and secret. Try again in a few minutes.")))
        case .unreachable:
            return .failure(
                SignInProblem(
                    .baseURL, L("Cannot reach %s. Check that this computer is online, and the server address.", server))
            )
        }
    }

    /// The tenant to save: the token's claim, else the one configured already.
    package static func tenant(token: String, configured: String?) -> Result<String, SignInProblem> {
        if let claim = AccessTokenClaims(jwt: token)?.tenantId, UUID(uuidString: claim) != nil {
            return .success(claim.lowercased())
        }
        if let configured { return .success(configured) }
        return .failure(
            SignInProblem(
                .general,
                L(
                    "Relavoi accepted the key but did not say which account it is for. Sign in with relavoi-agent login in a terminal."
                )))
    }
}
