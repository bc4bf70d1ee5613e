import RelavoiCore
import RelavoiGLib

/// Writes settings (`api-key`, `tenant-id`, …) into the `[agent]` group of
/// `agent.conf` in one go, keeping every other key and comment. The directory
/// is created 0700 and the file is written 0600 (atomically, by rename).
package enum AgentSettingsWriter {
    package typealias WriteError = KeyFile.WriteError

    /// Sets each key to its value, in this order.
    package static func set(_ values: [(key: String, value: String)], path: String) throws(WriteError) {
        try KeyFile.set(values, group: AgentSettings.group, path: path, mode: 0o600)
    }

    /// Removes the keys (the administrator's default, or the built-in one, applies again).
    package static func remove(_ keys: [String], path: String) throws(WriteError) {
        try KeyFile.remove(keys, group: AgentSettings.group, path: path, mode: 0o600)
    }
}
