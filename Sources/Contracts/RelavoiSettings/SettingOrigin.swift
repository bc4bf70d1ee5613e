/// Where the value of one `agent.conf` key comes from, strongest first.
package enum SettingOrigin: Equatable, Sendable {
    /// An environment variable (`RELAVOI_BASE_URL`, …) of this process.
    case environment(variable: String)
    /// The person's own file (`~/.config/relavoi/agent.conf`).
    case user(path: String)
    /// An administrator's default (`/etc/xdg/relavoi/agent.conf`).
    case administrator(path: String)
    /// Nobody set it: the agent's built-in default.
    case builtIn
}
