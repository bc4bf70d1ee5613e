import FoundationEssentials
import RelavoiCore

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
    public var offlineNoticeAfter: TimeInterval = ConnectionHealth.offlineAfter
    /// When media players are paused for a call. `ringing` by default: the ring is the
    /// sound that must be heard, and the person needs the quiet to pick the phone up.
    public var pauseMedia: MediaPauseMode = .ringing

    public init() {}

    /// The group name in `agent.conf`.
    public static let group = "agent"

    /// The refused key: the secret never belongs in a file.
    static let secretKey = "api-secret"

    /// Reads settings from the `[agent]` group, then lets environment variables
    /// override (`Setting.environmentVariable`). Unknown keys are errors (a typo
    /// should not be silently ignored).
    public init(file: [String: String], environment: [String: String]) throws(SettingsError) {
        var values = file
        for setting in Setting.all {
            if let variable = setting.environmentVariable, let value = environment[variable], !value.isEmpty {
                values[setting.key] = value
            }
        }
        for (key, raw) in values.sorted(by: { $0.key < $1.key }) {
            guard let setting = Setting.named(key) else {
                if key == Self.secretKey {
                    throw SettingsError(
                        key: key,
                        message:
                            "the API secret does not belong in agent.conf; run `relavoi-agent login` or use RELAVOI_API_SECRET_FILE"
                    )
                }
                throw SettingsError(key: key, message: "unknown setting (see docs/settings.md or man relavoi-agent)")
            }
            try setting.apply(raw.trimmingWhitespace(), to: &self)
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
                key: Setting.apiKey.key,
                message:
                    "not set: run `relavoi-agent login`, or set \(Setting.apiKey.key) in agent.conf or RELAVOI_API_KEY")
        }
        if tenantId == nil {
            throw SettingsError(
                key: Setting.tenantId.key,
                message:
                    "not set: run `relavoi-agent login` (it reads it from the access token), or set \(Setting.tenantId.key) in agent.conf or RELAVOI_TENANT_ID"
            )
        }
    }

    public static func isE164(_ text: String) -> Bool {
        guard text.first == "+" else { return false }
        let digits = text.dropFirst()
        return (8...15).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
            && digits.first != "0"
    }
}
