import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiSettings
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
    package let configuredPhone: String?
    /// `--user-phone`, checked and without spaces.
    package let userPhone: String?

    /// `baseURL` and `userPhone`: what sign-in was given (`--base-url`, `--user-phone`).
    package static func resolve(
        baseURL: String?, userPhone: String?, existing: [String: String], environment: [String: String]
    )
        -> Result<LoginTarget, SettingsError>
    {
        var file = existing
        var environment = environment
        if let baseURL {
            file[Setting.baseURL.key] = baseURL
            if let variable = Setting.baseURL.environmentVariable { environment.removeValue(forKey: variable) }
        }
        var phone: String?
        if let given = userPhone {
            phone = Self.normalizedPhone(given)
            guard let phone, AgentSettings.isE164(phone) else {
                return .failure(
                    SettingsError(
                        key: "--" + Setting.userPhone.key, message: "expected an E.164 number such as +2348000000001"))
            }
        }
        do throws(SettingsError) {
            let settings = try AgentSettings(file: file, environment: environment)
            return .success(
                LoginTarget(
                    settings: settings, config: try RelavoiConfig(agentSettings: settings),
                    configuredTenant: existing[Setting.tenantId.key].flatMap(Self.uuid),
                    configuredPhone: existing[Setting.userPhone.key].map { $0.trimmingWhitespace() }
                        .flatMap { $0.isEmpty ? nil : $0 },
                    userPhone: phone))
        } catch {
            return .failure(error)
        }
    }

    /// The number without the spaces, dashes, dots and brackets people type in it.
    package static func normalizedPhone(_ text: String) -> String {
        String(text.filter { !" \t-.()".contains($0) })
    }

    private static func uuid(_ text: String) -> String? {
        let value = text.trimmingWhitespace().lowercased()
        return UUID(uuidString: value) == nil ? nil : value
    }
}
