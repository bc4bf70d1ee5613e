import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiGLib

/// Reads `agent.conf` and the environment.
package enum AgentSettingsLoader {
    package static func load(path: String?) throws -> AgentSettings {
        let file = path ?? AgentConfigFile.defaultPath
        if path != nil, !FileManager.default.fileExists(atPath: file) {
            throw SettingsError(key: "--config", message: "\(file) does not exist")
        }
        let groups = try KeyFile.load(path: file)
        do {
            return try AgentSettings(
                file: groups[AgentSettings.group] ?? [:], environment: ProcessInfo.processInfo.environment)
        } catch {
            throw SettingsError(key: error.key, message: "\(error.message) (in \(file) or the environment)")
        }
    }
}
