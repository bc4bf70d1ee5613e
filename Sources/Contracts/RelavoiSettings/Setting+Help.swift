extension Setting {
    /// The settings as `relavoi-agent --help` lists them: each key with its values, its
    /// default and its environment variable, then its one-line description.
    public static var helpText: String {
        var lines = ["Settings (the [agent] group of agent.conf):"]
        for setting in all {
            var facts: [String] = []
            let defaultValue = setting.defaultValue
            facts.append(
                "default: " + (defaultValue.isEmpty ? setting.unsetDefault.replacing("`", with: "") : defaultValue))
            if let variable = setting.environmentVariable { facts.append("or " + variable) }
            lines.append("  \(setting.key) = \(setting.type.synopsis)  (\(facts.joined(separator: "; ")))")
            lines.append("      " + setting.summary)
        }
        return lines.joined(separator: "\n")
    }
}
