import RelavoiCore
import RelavoiGLib

/// The `[agent]` group as the agent reads it by default: the administrator's
/// defaults from each XDG config dir (`/etc/xdg/relavoi/agent.conf`; the first
/// dir of `$XDG_CONFIG_DIRS` wins over later ones), then the person's own file,
/// which wins key by key. Each key keeps where its value came from.
package struct AgentSettingsLayers: Equatable, Sendable {
    /// Each administrator file that exists, most important first, with its group.
    package var administrator: [(path: String, group: [String: String])]
    package var userPath: String
    package var user: [String: String]

    package static func == (lhs: AgentSettingsLayers, rhs: AgentSettingsLayers) -> Bool {
        lhs.userPath == rhs.userPath && lhs.user == rhs.user
            && lhs.administrator.map(\.path) == rhs.administrator.map(\.path)
            && lhs.administrator.map(\.group) == rhs.administrator.map(\.group)
    }

    /// `relavoi/agent.conf` under each of `$XDG_CONFIG_DIRS`, most important first.
    package static var administratorPaths: [String] {
        KeyFile.systemConfigDirectories.map { $0 + "/relavoi/agent.conf" }
    }

    /// Reads the files; a missing one is empty, an unreadable one an error naming it.
    package static func load(
        userPath: String = AgentSettingsFile.defaultPath, administratorPaths: [String] = administratorPaths
    ) throws -> AgentSettingsLayers {
        var administrator: [(path: String, group: [String: String])] = []
        for path in administratorPaths {
            guard let group = try KeyFile.load(path: path)[AgentSettings.group] else { continue }
            administrator.append((path, group))
        }
        let user = try KeyFile.load(path: userPath)[AgentSettings.group] ?? [:]
        return AgentSettingsLayers(administrator: administrator, userPath: userPath, user: user)
    }

    /// Every key with the value that wins.
    package var merged: [String: String] {
        var values: [String: String] = [:]
        for layer in administrator.reversed() { values.merge(layer.group) { _, stronger in stronger } }
        values.merge(user) { _, stronger in stronger }
        return values
    }

    /// The administrator's value for `key` (what the person's own value hides), if any.
    package func administratorValue(_ key: String) -> (path: String, value: String)? {
        for layer in administrator {
            if let value = layer.group[key] { return (layer.path, value) }
        }
        return nil
    }

    /// Where `key`'s value comes from, the environment included.
    package func origin(of key: String, environment: [String: String] = [:]) -> SettingOrigin {
        if let variable = Setting.named(key)?.environmentVariable, environment[variable]?.isEmpty == false {
            return .environment(variable: variable)
        }
        if user[key] != nil { return .user(path: userPath) }
        if let found = administratorValue(key) { return .administrator(path: found.path) }
        return .builtIn
    }

    /// The settings these files and `environment` make, with the agent's own parser; an
    /// error names the file the bad value is in.
    package func settings(environment: [String: String]) throws(SettingsError) -> AgentSettings {
        do {
            return try AgentSettings(file: merged, environment: environment)
        } catch {
            let place: String
            switch origin(of: error.key, environment: environment) {
            case .environment(let variable): place = "in \(variable)"
            case .user(let path), .administrator(let path): place = "in \(path)"
            case .builtIn: place = "in \(userPath) or the environment"
            }
            throw SettingsError(key: error.key, message: "\(error.message) (\(place))")
        }
    }
}
