/// One key of `agent.conf` (group `[agent]`): its name, the environment variable that
/// overrides it, its type, how it is parsed into `AgentSettings` and written back, and a
/// one-line description. `Setting.all` is the one table of settings: the parser, the
/// window's controls, `--help`, and the checks of the man page and docs/settings.md
/// (RelavoiSettingsTests) all read it.
public struct Setting: Sendable {
    public typealias Parse = @Sendable (inout AgentSettings, String) throws(Invalid) -> Void

    /// A value this setting cannot take, and what to write instead.
    public struct Invalid: Error, Equatable, Sendable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    public let key: String
    public let environmentVariable: String?
    public let type: SettingType
    /// What the docs say when the default is empty ("none", "(required)", …).
    public let unsetDefault: String
    public let summary: String
    let parse: Parse
    let format: @Sendable (AgentSettings) -> String

    init(
        _ key: String, environment: String? = nil, _ type: SettingType, unset: String = "none", _ summary: String,
        parse: @escaping Parse, format: @escaping @Sendable (AgentSettings) -> String
    ) {
        self.key = key
        self.environmentVariable = environment
        self.type = type
        self.unsetDefault = unset
        self.summary = summary
        self.parse = parse
        self.format = format
    }

    /// The value `settings` holds for this key, as agent.conf would spell it.
    public func value(in settings: AgentSettings) -> String { format(settings) }

    /// The built-in default, as agent.conf would spell it ("" when unset).
    public var defaultValue: String { format(AgentSettings()) }

    /// Takes `raw` (already trimmed) into `settings`.
    func apply(_ raw: String, to settings: inout AgentSettings) throws(SettingsError) {
        do {
            try parse(&settings, raw)
        } catch {
            throw SettingsError(key: key, message: error.message)
        }
    }

    /// The entry for `key`, if it is a setting.
    public static func named(_ key: String) -> Setting? { all.first { $0.key == key } }
}
