import FoundationEssentials
import RelavoiCore

// The one table of settings: each key of agent.conf once, in the order the docs list them.
extension Setting {
    public static let all: [Setting] = [
        baseURL, webSocketURL, apiKey, tenantId, userPhone, apiSecretFile, dismissPolicy, ringThroughDoNotDisturb,
        smsNotifications, proxyNumbers, maxBanners, labelKey, openURL, bannersEnabled, keepOnScreen, trayItem,
        lockScreen, topBar, kdePanel, offlineNoticeAfter, pauseMedia,
    ]

    public static let baseURL = Setting(
        "base-url", environment: "RELAVOI_BASE_URL", .text("URL"), "REST base URL; plain http only for loopback hosts",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            s.baseURL = try url(v, schemes: ["https", "http"])
        },
        format: { $0.baseURL })
    public static let webSocketURL = Setting(
        "ws-url", environment: "RELAVOI_WS_URL", .text("URL"), unset: "derived: `wss://host/ws`",
        "the event stream's URL",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            s.webSocketURL = v.isEmpty ? nil : try url(v, schemes: ["wss", "ws"])
        },
        format: { $0.webSocketURL ?? "" })
    public static let apiKey = Setting(
        "api-key", environment: "RELAVOI_API_KEY", .text("KEY"), unset: "(required)", "the integration's API key",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.apiKey = v.isEmpty ? nil : v },
        format: { $0.apiKey ?? "" })
    public static let tenantId = Setting(
        "tenant-id", environment: "RELAVOI_TENANT_ID", .text("UUID"), unset: "(required)", "the tenant's UUID",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard v.isEmpty || UUID(uuidString: v) != nil else {
                throw Invalid("expected the tenant's UUID, e.g. 3f2b…-…")
            }
            s.tenantId = v.isEmpty ? nil : v.lowercased()
        }, format: { $0.tenantId ?? "" })
    public static let userPhone = Setting(
        "user-phone", environment: "RELAVOI_USER_PHONE", .text("E164"),
        "your own number; when set, the service decides the verified badge",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard v.isEmpty || AgentSettings.isE164(v) else {
                throw Invalid("expected an E.164 number such as +2348000000001")
            }
            s.userPhone = v.isEmpty ? nil : v
        }, format: { $0.userPhone ?? "" })
    public static let apiSecretFile = Setting(
        "api-secret-file", environment: "RELAVOI_API_SECRET_FILE", .text("FILE"),
        "a file holding the secret, refused unless only you can read it",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.apiSecretFile = v.isEmpty ? nil : v },
        format: { $0.apiSecretFile ?? "" })
    public static let dismissPolicy = Setting(
        "dismiss-policy", .text("immediate | default | after:SECONDS"), "what a banner does when its call ends",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard let policy = AgentDismissPolicy(parsing: v) else {
                throw Invalid("expected immediate, default or after:SECONDS (0 to 14400)")
            }
            s.dismissPolicy = policy
        }, format: { $0.dismissPolicy.description })
    public static let ringThroughDoNotDisturb = Setting(
        "ring-through-dnd", .bool, "ringing breaks through Do Not Disturb at critical urgency",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.banners.ringThroughDoNotDisturb = try bool(v)
        },
        format: { String($0.banners.ringThroughDoNotDisturb) })
    public static let smsNotifications = Setting(
        "sms-notifications", .bool, "a short banner when an SMS arrives on a shown proxy number",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.smsNotifications = try bool(v) },
        format: { String($0.smsNotifications) })
    public static let proxyNumbers = Setting(
        "proxy-numbers", .text("NUMBER, NUMBER, ..."), unset: "empty (all)",
        "only calls on these proxy numbers get banners",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            s.proxyNumbers = v.split(whereSeparator: { $0 == "," || $0 == ";" })
                .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        }, format: { $0.proxyNumbers.joined(separator: ", ") })
    public static let maxBanners = Setting(
        "max-banners", .number(1...20), "live banners at most; the rest are counted in one summary",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard let number = Int(v), (1...20).contains(number) else {
                throw Invalid("expected a number from 1 to 20")
            }
            s.maxBanners = number
        }, format: { String($0.maxBanners) })
    public static let labelKey = Setting(
        "label-key", .text("KEY"), "the session metadata key that holds the other party's label",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard !v.isEmpty, v.count <= 64 else {
                throw Invalid("expected a metadata key name")
            }
            s.labelKey = v
        }, format: { $0.labelKey })
    public static let openURL = Setting(
        "open-url", .text("TEMPLATE"), "the page a click on a call's banner opens",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            do throws(OpenURLTemplate.Invalid) {
                s.openURL = v.isEmpty ? nil : try OpenURLTemplate(parsing: v)
            } catch {
                throw Invalid(error.message)
            }
        }, format: { $0.openURL?.description ?? "" })
    public static let bannersEnabled = Setting(
        "banners-enabled", .bool, "false turns every banner off (apps using the SDK too)",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.banners.enabled = try bool(v) },
        format: { String($0.banners.enabled) })
    public static let keepOnScreen = Setting(
        "keep-on-screen", .bool, "keep the banner popped up for the whole call",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.banners.keepOnScreen = try bool(v) },
        format: { String($0.banners.keepOnScreen) })
    public static let trayItem = Setting(
        "tray-item", .choice(TrayItemMode.allCases.map(\.rawValue)), "the panel item (StatusNotifierItem)",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.trayItem = try choice(v) },
        format: { $0.trayItem.rawValue })
    public static let lockScreen = Setting(
        "lock-screen", .choice(LockScreenPrivacy.allCases.map(\.rawValue)),
        "what the call card on GNOME's lock screen shows",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.lockScreen = try choice(v) },
        format: { $0.lockScreen.rawValue })
    public static let topBar = Setting(
        "gnome-top-bar", .choice(TopBarAnswer.allCases.map(\.rawValue)),
        "the answer to \"Show Relavoi calls in the top bar?\" (GNOME)",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.topBar = try choice(v) },
        format: { $0.topBar.rawValue })
    public static let kdePanel = Setting(
        "kde-panel", .choice(PlasmaPanelAnswer.allCases.map(\.rawValue)),
        "the answer to \"Show calls in the panel?\" (KDE Plasma 6.4+)",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.plasmaPanel = try choice(v) },
        format: { $0.plasmaPanel.rawValue })
    public static let offlineNoticeAfter = Setting(
        "offline-notice-after", .number(1...3600), "seconds the stream may be down before the agent says it is offline",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in
            guard let seconds = Int(v), (1...3600).contains(seconds) else {
                throw Invalid("expected seconds from 1 to 3600")
            }
            s.offlineNoticeAfter = TimeInterval(seconds)
        }, format: { String(Int($0.offlineNoticeAfter)) })
    public static let pauseMedia = Setting(
        "pause-media", .choice(MediaPauseMode.allCases.map(\.rawValue)),
        "when media players (MPRIS) are paused for a call",
        parse: { (s: inout AgentSettings, v: String) throws(Invalid) in s.pauseMedia = try choice(v) },
        format: { $0.pauseMedia.rawValue })

    /// A `base-url`/`ws-url` value: one of `schemes`, with a host.
    private static func url(_ text: String, schemes: Set<String>) throws(Invalid) -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            url.host?.isEmpty == false
        else {
            throw Invalid("expected a URL starting with \(schemes.sorted().reversed().joined(separator: "://, "))://")
        }
        return text
    }

    /// `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`.
    private static func bool(_ raw: String) throws(Invalid) -> Bool {
        switch raw.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw Invalid("expected true or false, got \"\(raw.prefix(40))\"")
        }
    }

    /// One word of a `.choice`, any case.
    private static func choice<Value: RawRepresentable & CaseIterable>(_ text: String) throws(Invalid) -> Value
    where Value.RawValue == String {
        guard let value = Value(rawValue: text.lowercased()) else {
            let words = Value.allCases.map(\.rawValue)
            throw Invalid("expected \(words.dropLast().joined(separator: ", ")) or \(words.last ?? "")")
        }
        return value
    }
}
