import RelavoiCore
import RelavoiSettings

/// One setting of the Settings page: its entry of the table of settings, the `.ui` ids it
/// uses (`ID_row`, `ID_switch`, `ID_choice_N`, `ID_origin`, `ID_error`), and how its control
/// shows a value (values as agent.conf spells them: `Setting.value(in:)`).
package struct SettingControl: Sendable {
    package enum Kind: Sendable {
        /// A switch: the values for on and off.
        case toggle(on: String, off: String)
        /// A choice: the value of each item of the `.ui` list, in order.
        case choice([String])
        /// A choice as a radio group (`ID_choice_0`…, GtkCheckButtons in one group): one Tab
        /// stop, the arrows move the choice; each value a radio button a screen reader names.
        case radio([String])
        /// A line of text, applied with the row's apply button or Enter.
        case text

        var isText: Bool {
            if case .text = self { return true }
            return false
        }
    }

    package let setting: Setting
    package let id: String
    package let kind: Kind

    package var key: String { setting.key }

    /// A switch for a `.bool` setting.
    static func toggle(_ setting: Setting, id: String) -> SettingControl {
        SettingControl(setting: setting, id: id, kind: .toggle(on: "true", off: "false"))
    }

    /// The setting's own words, as a list (`radio`: as radio rows).
    static func choice(_ setting: Setting, id: String, radio: Bool = false) -> SettingControl {
        guard case .choice(let words) = setting.type else { preconditionFailure("\(setting.key) is not a choice") }
        return SettingControl(setting: setting, id: id, kind: radio ? .radio(words) : .choice(words))
    }

    /// The page's settings, in the order they are shown. Defaults are the table's own.
    package static let all: [SettingControl] = [
        .toggle(.bannersEnabled, id: "banners"),
        .toggle(.keepOnScreen, id: "keep_on_screen"),
        .toggle(.ringThroughDoNotDisturb, id: "ring_dnd"),
        // A few common values; another one written in agent.conf is shown as the row's subtitle.
        SettingControl(
            setting: .dismissPolicy, id: "dismiss",
            kind: .choice(
                [AgentDismissPolicy.immediate, .default, .after(seconds: 10), .after(seconds: 60)].map(\.description))),
        .toggle(.smsNotifications, id: "sms"),
        .choice(.pauseMedia, id: "pause_media"),
        .choice(.lockScreen, id: "lock_screen", radio: true),
        // The question is answered here: on or off (`ask` shows as off).
        SettingControl(
            setting: .topBar, id: "top_bar", kind: .toggle(on: TopBarAnswer.on.rawValue, off: TopBarAnswer.off.rawValue)
        ),
        SettingControl(
            setting: .kdePanel, id: "kde_panel",
            kind: .toggle(on: PlasmaPanelAnswer.on.rawValue, off: PlasmaPanelAnswer.off.rawValue)),
        .choice(.trayItem, id: "tray"),
        SettingControl(setting: .proxyNumbers, id: "proxy_numbers", kind: .text),
        SettingControl(setting: .openURL, id: "open_url", kind: .text),
    ]

    /// The value `settings` holds for this key, in the form the control shows.
    package func value(in settings: AgentSettings) -> String { setting.value(in: settings) }
}
