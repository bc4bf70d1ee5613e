import RelavoiCore
import RelavoiGLib
import RelavoiSettings

/// The account's API secret, from the keyring or the secret file.
enum AccountSecret {
    /// Nil when there is no account at all (no key, tenant or secret
    /// anywhere: not set up, which the agent tells and waits out). A secret
    /// file that is named but unsafe or unreadable throws: a setting to fix,
    /// exit 78 as for any malformed one.
    static func find(for settings: AgentSettings) throws -> String? {
        do {
            try settings.requireAccount()
        } catch {
            Log.message("not set up: \(error)")
            return nil
        }
        let resolved: SecretSource.Resolved
        do {
            resolved = try SecretSource(apiKey: settings.apiKey, settingsSecretFile: settings.apiSecretFile).resolve()
        } catch {
            guard error.isMissing else { throw error }
            Log.message("not set up: \(error)")
            return nil
        }
        Log.info("API secret from \(resolved.origin)")
        return resolved.secret.value
    }
}
