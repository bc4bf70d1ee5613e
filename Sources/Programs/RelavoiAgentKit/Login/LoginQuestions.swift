import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore
import RelavoiI18n
import RelavoiSettings

/// The questions `login` asks once the key and secret are known: which
/// tenant, and the user's own phone number. Bad answers are asked again; an
/// end of input (Ctrl-D, or a script's last line) ends the question.
package struct LoginQuestions {
    let io: LoginCommand.IO

    /// The tenant id to save: the token's, unless the user keeps a different
    /// configured one; asked for when the token has none. nil: none given.
    func tenant(fromToken: String?, configured: String?) -> String? {
        guard let fromToken else { return askTenant(configured: configured) }
        guard let configured, configured != fromToken else { return fromToken }
        io.out(L("agent.conf has tenant-id %s, but this API key belongs to tenant %s.", configured, fromToken))
        while true {
            // TRANSLATORS: the answer is read as y or n (yes, no) in every language: keep [Y/n].
            guard let line = io.readLine(L("Save tenant-id %s instead? [Y/n] ", fromToken), false) else {
                return fromToken
            }
            switch line.trimmingWhitespace().lowercased() {
            case "", "y", "yes": return fromToken
            case "n", "no": return configured
            default: io.err("relavoi-agent login: " + L("answer y or n"))
            }
        }
    }

    private func askTenant(configured: String?) -> String? {
        let prompt = configured.map { L("Tenant id (Enter keeps %s): ", $0) } ?? L("Tenant id (the tenant's UUID): ")
        while true {
            guard let line = io.readLine(prompt, false) else { return configured }
            let text = line.trimmingWhitespace()
            if text.isEmpty, let configured { return configured }
            if UUID(uuidString: text) != nil { return text.lowercased() }
            // Not echoed: a mistaken paste may be the secret.
            io.err(
                "relavoi-agent login: "
                    + L("that is not a UUID (such as 5a4d0000-0000-4000-8000-00000000c0de); try again"))
        }
    }

    /// The phone number to save, or nil to leave `user-phone` as it is.
    func phone(configured: String?) -> String? {
        let prompt =
            configured.map {
                L(
                    "Your phone number for call verification, E.164 such as +2348000000001 (optional; Enter keeps %s): ",
                    $0)
            } ?? L("Your phone number for call verification, E.164 such as +2348000000001 (optional; Enter skips): ")
        while true {
            guard let line = io.readLine(prompt, false) else { return nil }
            let text = LoginTarget.normalizedPhone(line)
            if text.isEmpty { return nil }
            if AgentSettings.isE164(text) { return text }
            io.err(
                "relavoi-agent login: "
                    + L(
                        "that is not an E.164 number (+, the country code and the number, 8 to 15 digits); try again, or press Enter to skip"
                    )
            )
        }
    }
}
