import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiStream

/// Where `login` checks the pair and what is configured already: the
/// agent's own settings rules applied to agent.conf, the environment and
/// login's options (`--base-url` wins over both).
package struct LoginTarget {
    package let settings: AgentSettings
    package let config: RelavoiConfig
    /// The file's `tenant-id`: the value a new one would replace.
    package let configuredTenant: String?
    /// The file's `user-phone`.
    let configuredPhone: String?
    /// `--user-phone`, checked and without spaces.
    let userPhone: String?

    package static func resolve(options: LoginOptions, existing: [String: String], environment: [String: String])
        -> Result<LoginTarget, SettingsError>
    {
        var file = existing
        var environment = environment
        if let baseURL = options.baseURL {
            file["base-url"] = baseURL
            environment.removeValue(forKey: "RELAVOI_BASE_URL")
        }
        var phone: String?
        if let given = options.userPhone {
            phone = LoginQuestions.normalizedPhone(given)
            guard let phone, AgentSettings.isE164(phone) else {
                return .failure(
                    SettingsError(key: "--user-phone", message: "expected an E.164 number such as +2348000000001"))
            }
        }
        do throws(SettingsError) {
            let settings = try AgentSettings(file: file, environment: environment)
            return .success(
                LoginTarget(
                    settings: settings, config: try RelavoiConfig(agentSettings: settings),
                    configuredTenant: existing["tenant-id"].flatMap(Self.uuid),
                    configuredPhone: existing["user-phone"].map { $0.trimmingWhitespace() }
                        .flatMap { $0.isEmpty ? nil : $0 },
                    userPhone: phone))
        } catch {
            return .failure(error)
        }
    }

    private static func uuid(_ text: String) -> String? {
        let value = text.trimmingWhitespace().lowercased()
        return UUID(uuidString: value) == nil ? nil : value
    }
}
