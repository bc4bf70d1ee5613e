import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib

/// Reads `agent.conf` and the environment.
package enum AgentSettingsLoader {
    /// `path`: a file named with `--config`, read alone (it must exist). nil, or the
    /// person's own default file: the administrator's defaults (`/etc/xdg/relavoi/agent.conf`)
    /// with the person's file over them, key by key (`AgentSettingsLayers`).
    package static func load(path: String?) throws -> AgentSettings {
        let environment = ProcessInfo.processInfo.environment
        guard let path, path != AgentSettingsFile.defaultPath else {
            return try AgentSettingsLayers.load().settings(environment: environment)
        }
        if !FileManager.default.fileExists(atPath: path) {
            throw SettingsError(key: "--config", message: "\(path) does not exist")
        }
        let groups = try KeyFile.load(path: path)
        do {
            return try AgentSettings(file: groups[AgentSettings.group] ?? [:], environment: environment)
        } catch {
            throw SettingsError(key: error.key, message: "\(error.message) (in \(path) or the environment)")
        }
    }
}
