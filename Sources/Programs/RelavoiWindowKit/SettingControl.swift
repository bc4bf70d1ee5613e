import RelavoiCore
import RelavoiSettings

/// One setting of the Settings page: its entry of the table of settings, the `.ui` ids it
/// uses (`ID_row`, `ID_group` for a radio group, `ID_switch`, `ID_choice_N`, `ID_origin`,
/// `ID_error`), how its control shows a value (values as agent.conf spells them:
/// `Setting.value(in:)`), and the desktop it is for, if only one.
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

    /// A desktop whose own part a setting drives.
    package enum Desktop: Sendable {
        /// GNOME Shell (its top bar, its lock screen).
        case gnome
        /// KDE Plasma (its panel).
        case kde
    }

    package let setting: Setting
    package let id: String
    package let kind: Kind
    /// Shown only on this desktop (nil: on every desktop).
    package var onlyOn: Desktop? = nil

    package var key: String { setting.key }

    /// The widget that holds the whole setting (its title, control and origin).
    package var holderID: String {
        if case .radio = kind { return id + "_group" }
        return id + "_row"
    }

    /// Whether the page shows it on `desktop` (`CurrentDesktop`, as the agent reads it).
    package func applies(on desktop: CurrentDesktop) -> Bool {
        switch onlyOn {
        case nil: true
        case .gnome: desktop.isGNOME
        case .kde: desktop.isKDE
        }
    }

    /// A switch for a `.bool` setting.
    static func toggle(_ setting: Setting, id: String) -> SettingControl {
        SettingControl(setting: setting, id: id, kind: .toggle(on: "true", off: "false"))
    }

    /// The setting's own words, as a list (`radio`: as radio rows).
    static func choice(_ setting: Setting, id: String, radio: Bool = false, onlyOn: Desktop? = nil) -> SettingControl {
        guard case .choice(let words) = setting.type else { preconditionFailure("\(setting.key) is not a choice") }
        return SettingControl(setting: setting, id: id, kind: radio ? .radio(words) : .choice(words), onlyOn: onlyOn)
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
        // What GNOME Shell's lock-screen card shows (no other lock screen has it).
        .choice(.lockScreen, id: "lock_screen", radio: true, onlyOn: .gnome),
        // The question is answered here: on or off (`ask` shows as off).
        SettingControl(
            setting: .topBar, id: "top_bar",
            kind: .toggle(on: TopBarAnswer.on.rawValue, off: TopBarAnswer.off.rawValue),
            onlyOn: .gnome),
        SettingControl(
            setting: .kdePanel, id: "kde_panel",
            kind: .toggle(on: PlasmaPanelAnswer.on.rawValue, off: PlasmaPanelAnswer.off.rawValue), onlyOn: .kde),
        .choice(.trayItem, id: "tray"),
        SettingControl(setting: .proxyNumbers, id: "proxy_numbers", kind: .text),
        SettingControl(setting: .openURL, id: "open_url", kind: .text),
    ]

    /// The value `settings` holds for this key, in the form the control shows.
    package func value(in settings: AgentSettings) -> String { setting.value(in: settings) }
}
