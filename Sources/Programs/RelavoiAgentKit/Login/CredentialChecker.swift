import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiStream

/// Runs the SDK's one-off token exchange from `login`'s synchronous code:
/// the request runs on the GLib main loop, turned here until it is answered.
enum CredentialChecker {
    /// Call on the main thread (login runs there, before any main loop).
    static func check(apiKey: String, secret: APISecret, config: RelavoiConfig) -> CredentialCheckResult {
        MainActor.assumeIsolated {
            let answer = Answer()
            Task { @MainActor in
                answer.result = await CredentialCheck.run(apiKey: apiKey, apiSecret: secret.value, config: config)
            }
            // The request has its own timeout; this bound only keeps a stuck loop from hanging login.
            let answered = MainLoop.iterate(timeout: config.requestTimeout + 10) { answer.result != nil }
            guard answered, let result = answer.result else {
                return .unreachable("no answer within \(Int(config.requestTimeout + 10)) s")
            }
            return result
        }
    }

    @MainActor
    private final class Answer {
        var result: CredentialCheckResult?
    }
}
