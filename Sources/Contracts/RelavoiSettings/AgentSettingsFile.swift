import RelavoiGLib

/// Where the agent's settings live: the one definition the agent, its login
/// and SDK hosts (which honour `banners-enabled`) all read.
package enum AgentSettingsFile {
    /// `$XDG_CONFIG_HOME/relavoi/agent.conf` (or `~/.config/relavoi/agent.conf`).
    package static var defaultPath: String { KeyFile.userConfigDirectory + "/relavoi/agent.conf" }
}
