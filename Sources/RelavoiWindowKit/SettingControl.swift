import RelavoiCore

/// One setting of the Settings page: its `agent.conf` key, the `.ui` ids it uses
/// (`ID_row`, `ID_switch`, `ID_choice_N`, `ID_origin`, `ID_error`), and how its control
/// shows a value.
package struct SettingControl: Sendable {
    package enum Kind: Sendable {
        /// A switch: the values for on and off.
        case toggle(on: String, off: String)
        /// A choice: the value of each item of the `.ui` list, in order.
        case choice([String])
        /// A choice as radio rows (`ID_choice_0`…, GtkCheckButtons in one group): each
        /// value is a control of its own, reached by Tab and by a screen reader.
        case radio([String])
        /// A line of text, applied with the row's apply button or Enter.
        case text

        var isText: Bool {
            if case .text = self { return true }
            return false
        }
    }

    package let key: String
    package let id: String
    package let kind: Kind

    /// The page's settings, in the order they are shown. Defaults are the parser's own.
    package static let all: [SettingControl] = [
        SettingControl(key: "banners-enabled", id: "banners", kind: .toggle(on: "true", off: "false")),
        SettingControl(key: "keep-on-screen", id: "keep_on_screen", kind: .toggle(on: "true", off: "false")),
        SettingControl(key: "ring-through-dnd", id: "ring_dnd", kind: .toggle(on: "true", off: "false")),
        SettingControl(
            key: "dismiss-policy", id: "dismiss", kind: .choice(["immediate", "default", "after:10", "after:60"])),
        SettingControl(key: "sms-notifications", id: "sms", kind: .toggle(on: "true", off: "false")),
        SettingControl(
            key: MediaPauseMode.settingKey, id: "pause_media", kind: .choice(MediaPauseMode.allCases.map(\.rawValue))),
        SettingControl(
            key: LockScreenPrivacy.settingKey, id: "lock_screen",
            kind: .radio(LockScreenPrivacy.allCases.map(\.rawValue))),
        SettingControl(key: TopBarAnswer.settingKey, id: "top_bar", kind: .toggle(on: "on", off: "off")),
        SettingControl(key: PlasmaPanelAnswer.settingKey, id: "kde_panel", kind: .toggle(on: "on", off: "off")),
        SettingControl(key: "tray-item", id: "tray", kind: .choice(["auto", "on", "off"])),
        SettingControl(key: "proxy-numbers", id: "proxy_numbers", kind: .text),
        SettingControl(key: OpenURLTemplate.settingKey, id: "open_url", kind: .text),
    ]

    /// The value `settings` holds for this key, in the form the control shows.
    package func value(in settings: AgentSettings) -> String {
        switch key {
        case "banners-enabled": return settings.banners.enabled ? "true" : "false"
        case "keep-on-screen": return settings.banners.keepOnScreen ? "true" : "false"
        case "ring-through-dnd": return settings.banners.ringThroughDoNotDisturb ? "true" : "false"
        case "sms-notifications": return settings.smsNotifications ? "true" : "false"
        case "dismiss-policy":
            switch settings.dismissPolicy {
            case .immediate: return "immediate"
            case .default: return "default"
            case .after(let seconds): return "after:\(seconds)"
            }
        case LockScreenPrivacy.settingKey: return settings.lockScreen.rawValue
        case TopBarAnswer.settingKey: return settings.topBar == .on ? "on" : "off"
        case PlasmaPanelAnswer.settingKey: return settings.plasmaPanel == .on ? "on" : "off"
        case "tray-item": return settings.trayItem.rawValue
        case MediaPauseMode.settingKey: return settings.pauseMedia.rawValue
        case "proxy-numbers": return settings.proxyNumbers.joined(separator: ", ")
        case OpenURLTemplate.settingKey: return settings.openURL?.description ?? ""
        default: return ""
        }
    }
}
