import FoundationEssentials
import RelavoiCore
import RelavoiSettings
import RelavoiStream

extension RelavoiConfig {
    /// The stream's configuration from agent.conf; refuses plain HTTP/WS to
    /// anything but loopback.
    package init(agentSettings settings: AgentSettings) throws(SettingsError) {
        guard let baseURL = URL(string: settings.baseURL) else {
            throw SettingsError(key: Setting.baseURL.key, message: "not a URL")
        }
        self.init(baseURL: baseURL, webSocketURL: settings.webSocketURL.flatMap(URL.init(string:)))
        do {
            try validate()
        } catch {
            throw SettingsError(key: Setting.baseURL.key, message: "\(error)")
        }
    }
}
