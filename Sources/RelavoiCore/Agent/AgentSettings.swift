import FoundationEssentials

/// Everything the agent reads from `agent.conf` (group `[agent]`) and the
/// environment. Pure: the caller reads the file and the environment. The API
/// secret is not here: it never passes through settings parsing.
public struct AgentSettings: Equatable, Sendable {
    public var baseURL: String = "https://api.relavoi.com/v1"
    /// Explicit WebSocket URL; nil derives it from `baseURL`.
    public var webSocketURL: String?
    public var apiKey: String?
    public var tenantId: String?
    /// E.164; when set, `GET /sessions/verify` decides the badge.
    public var userPhone: String?
    public var apiSecretFile: String?
    public var dismissPolicy: AgentDismissPolicy = .immediate
    public var smsNotifications = true
    /// Only calls on these proxy numbers get banners; empty means all.
    public var proxyNumbers: [String] = []
    public var maxBanners = 3
    public var labelKey = "label"
    /// The page a click on a banner opens; nil: a click does nothing.
    public var openURL: OpenURLTemplate?
    public var banners = BannerSettings()
    /// The panel item (StatusNotifierItem) while a call is shown.
    public var trayItem: TrayItemMode = .auto
    /// The answer to "Show Relavoi calls in the top bar?" (GNOME).
    public var topBar: TopBarAnswer = .ask
    /// The answer to "Show calls in the panel?" (KDE Plasma's widget).
    public var plasmaPanel: PlasmaPanelAnswer = .ask
    /// What the call card on GNOME's lock screen may show.
    public var lockScreen: LockScreenPrivacy = .label
    /// Seconds the stream may be down before the agent says it is offline.
    public var offlineNoticeAfter: TimeInterval = ConnectionHealthMachine.offlineAfter
    /// When media players are paused for a call. `ringing` by default: the ring is the
    /// sound that must be heard, and the person needs the quiet to pick the phone up.
    public var pauseMedia: MediaPauseMode = .ringing

    public init() {}

    /// The group name in `agent.conf`.
    public static let group = "agent"

    /// The environment variables that override keys of the file.
    static let environmentOverrides: [(variable: String, key: String)] = [
        ("RELAVOI_BASE_URL", "base-url"), ("RELAVOI_WS_URL", "ws-url"), ("RELAVOI_API_KEY", "api-key"),
        ("RELAVOI_TENANT_ID", "tenant-id"), ("RELAVOI_USER_PHONE", "user-phone"),
        ("RELAVOI_API_SECRET_FILE", "api-secret-file"),
    ]

    /// The environment variable that overrides `key`, if any.
    public static func environmentVariable(for key: String) -> String? {
        environmentOverrides.first { $0.key == key }?.variable
    }

    /// Reads settings from the `[agent]` group, then lets environment
    /// variables override. Unknown keys are errors (a typo should not be silently ignored).
    public init(file: [String: String], environment: [String: String]) throws(SettingsError) {
        var values = file
        for (variable, key) in Self.environmentOverrides {
            if let value = environment[variable], !value.isEmpty { values[key] = value }
        }
        for (key, raw) in values.sorted(by: { $0.key < $1.key }) {
            try apply(key: key, raw: raw)
        }
    }

    private mutating func apply(key: String, raw: String) throws(SettingsError) {
        let value = raw.trimmingWhitespace()
        switch key {
        case "base-url": baseURL = try Self.url(value, key: key, schemes: ["https", "http"])
        case "ws-url": webSocketURL = value.isEmpty ? nil : try Self.url(value, key: key, schemes: ["wss", "ws"])
        case "api-key": apiKey = value.isEmpty ? nil : value
        case "tenant-id":
            guard value.isEmpty || UUID(uuidString: value) != nil else {
                throw SettingsError(key: key, message: "expected the tenant's UUID, e.g. 3f2b…-…")
            }
            tenantId = value.isEmpty ? nil : value.lowercased()
        case "user-phone":
            guard value.isEmpty || Self.isE164(value) else {
                throw SettingsError(key: key, message: "expected an E.164 number such as +2348000000001")
            }
            userPhone = value.isEmpty ? nil : value
        case "api-secret-file": apiSecretFile = value.isEmpty ? nil : value
        case "api-secret":
            throw SettingsError(
                key: key,
                message:
                    "the API secret does not belong in agent.conf; run `relavoi-agent login` or use RELAVOI_API_SECRET_FILE"
            )
        case "dismiss-policy": dismissPolicy = try AgentDismissPolicy(parsing: value)
        case "sms-notifications": smsNotifications = try SettingsValue.bool(value, key: key)
        case "proxy-numbers":
            proxyNumbers = value.split(whereSeparator: { $0 == "," || $0 == ";" })
                .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        case "max-banners":
            guard let number = Int(value), (1...20).contains(number) else {
                throw SettingsError(key: key, message: "expected a number from 1 to 20")
            }
            maxBanners = number
        case "label-key":
            guard !value.isEmpty, value.count <= 64 else {
                throw SettingsError(key: key, message: "expected a metadata key name")
            }
            labelKey = value
        case OpenURLTemplate.settingKey: openURL = value.isEmpty ? nil : try OpenURLTemplate(parsing: value)
        case "tray-item":
            guard let mode = TrayItemMode(rawValue: value.lowercased()) else {
                throw SettingsError(key: key, message: "expected auto, on or off")
            }
            trayItem = mode
        case TopBarAnswer.settingKey:
            guard let answer = TopBarAnswer(rawValue: value.lowercased()) else {
                throw SettingsError(key: key, message: "expected ask, on or off")
            }
            topBar = answer
        case PlasmaPanelAnswer.settingKey:
            guard let answer = PlasmaPanelAnswer(rawValue: value.lowercased()) else {
                throw SettingsError(key: key, message: "expected ask, on or off")
            }
            plasmaPanel = answer
        case "offline-notice-after":
            guard let seconds = Int(value), (1...3600).contains(seconds) else {
                throw SettingsError(key: key, message: "expected seconds from 1 to 3600")
            }
            offlineNoticeAfter = TimeInterval(seconds)
        case LockScreenPrivacy.settingKey:
            guard let privacy = LockScreenPrivacy(rawValue: value.lowercased()) else {
                throw SettingsError(key: key, message: "expected label, number, badge or off")
            }
            lockScreen = privacy
        case MediaPauseMode.settingKey:
            guard let mode = MediaPauseMode(rawValue: value.lowercased()) else {
                throw SettingsError(key: key, message: "expected ringing, answered or off")
            }
            pauseMedia = mode
        default:
            guard try banners.apply(key: key, raw: value) else {
                throw SettingsError(key: key, message: "unknown setting (see docs/settings.md or man relavoi-agent)")
            }
        }
    }

    /// Whether `other` names the same account (key, tenant, servers, phone):
    /// what tells a new sign-in from a change of some other setting.
    public func hasSameAccount(as other: AgentSettings) -> Bool {
        apiKey == other.apiKey && tenantId == other.tenantId && baseURL == other.baseURL
            && webSocketURL == other.webSocketURL && userPhone == other.userPhone
            && apiSecretFile == other.apiSecretFile
    }

    /// The settings a real connection needs, with what to set when missing.
    public func requireAccount() throws(SettingsError) {
        if apiKey == nil {
            throw SettingsError(
                key: "api-key",
                message: "not set: run `relavoi-agent login`, or set api-key in agent.conf or RELAVOI_API_KEY")
        }
        if tenantId == nil {
            throw SettingsError(
                key: "tenant-id",
                message:
                    "not set: run `relavoi-agent login` (it reads it from the access token), or set tenant-id in agent.conf or RELAVOI_TENANT_ID"
            )
        }
    }

    public static func isE164(_ text: String) -> Bool {
        guard text.first == "+" else { return false }
        let digits = text.dropFirst()
        return (8...15).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
            && digits.first != "0"
    }

    static func url(_ text: String, key: String, schemes: Set<String>) throws(SettingsError) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            url.host?.isEmpty == false
        else {
            throw SettingsError(
                key: key,
                message: "expected a URL starting with \(schemes.sorted().reversed().joined(separator: "://, "))://")
        }
        return text
    }
}
