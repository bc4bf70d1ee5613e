import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiGtk
import RelavoiI18n
import RelavoiSettings

/// The Settings page: each change is checked with the agent's own parser, with every
/// other setting as it stands, and written to agent.conf at once (a bad value never
/// reaches the file); the running agent takes the file as it changes. Each row says
/// whose value it shows. A setting for one desktop's own part (GNOME's top bar and
/// lock-screen card, the KDE panel) shows on that desktop only; its value stays in the file.
@MainActor
package final class SettingsPage {
    private let ui: UIBuilder
    private let window: Widget
    private let bus: BusConnection?
    private let configPath: String
    private let desktop = CurrentDesktop(environment: ProcessInfo.processInfo.environment)
    private var loading = false

    package init(ui: UIBuilder, window: Widget, bus: BusConnection?, configPath: String) {
        self.ui = ui
        self.window = window
        self.bus = bus
        self.configPath = configPath
        // GTK 4.8 names an unnamed part by its type: a choice's open list was read "GtkListView".
        let choices = [
            ("dismiss_row", L("When a call ends")), ("pause_media_row", L("Pause music and videos")),
            ("tray_row", L("Panel item")),
        ]
        for (row, title) in choices {
            for list in ui.widget(row).descendants where list.typeName == "GtkListView" {
                list.setAccessibleLabel(title)
            }
        }
        for control in SettingControl.all where !control.applies(on: desktop) {
            ui.widget(control.holderID).isVisible = false
        }
        for control in SettingControl.all {
            switch control.kind {
            case .toggle(let on, let off):
                let toggle = ui.widget(control.id + "_switch")
                toggle.onChange(of: "active") { [weak self] in self?.changed(control, to: toggle.isOn ? on : off) }
            case .choice(let values):
                let row = ui.widget(control.id + "_row")
                row.onChange(of: "selected") { [weak self] in
                    guard row.selectedIndex < values.count else { return }
                    self?.changed(control, to: values[row.selectedIndex])
                }
            case .radio(let values):
                for (index, value) in values.enumerated() {
                    let choice = ui.widget("\(control.id)_choice_\(index)")
                    choice.arrowsMoveWithinRadioGroup()
                    // The group's other buttons go inactive too: only the one turned on counts.
                    choice.onChange(of: "active") { [weak self] in
                        if choice.isChecked { self?.changed(control, to: value) }
                    }
                }
            case .text:
                let row = ui.widget(control.id + "_row")
                row.on("apply") { [weak self] in self?.changed(control, to: row.text.trimmingWhitespace()) }
                row.on("entry-activated") { [weak self] in self?.changed(control, to: row.text.trimmingWhitespace()) }
            }
        }
        let autostart = ui.widget("autostart_switch")
        autostart.onChange(of: "active") { [weak self] in self?.autostartChanged(autostart.isOn) }
        reload()
    }

    /// The controls from the files as they are now.
    package func reload() {
        loading = true
        defer { loading = false }
        let layers = try? AgentSettingsLayers.load(userPath: configPath)
        let settings = (try? layers?.settings(environment: [:])) ?? AgentSettings()
        for control in SettingControl.all {
            let value = control.value(in: settings)
            switch control.kind {
            case .toggle(let on, _): ui.widget(control.id + "_switch").isOn = value == on
            case .choice(let values):
                let row = ui.widget(control.id + "_row")
                if let index = values.firstIndex(of: value) {
                    row.selectedIndex = index
                } else {
                    row.setSubtitle(L("Now: %s (set in agent.conf)", value))
                }
            case .radio(let values):
                if let index = values.firstIndex(of: value) {
                    ui.widget("\(control.id)_choice_\(index)").isChecked = true
                }
            case .text: ui.widget(control.id + "_row").text = value
            }
            showOrigin(control, layers?.origin(of: control.key) ?? .builtIn)
        }
        ui.widget("autostart_switch").isOn = AutostartEntry.isOn
        ui.widget("autostart_origin").setLabel(AutostartEntry.isPersonal ? L("Yours") : L("Default"))
        showPreview(settings.lockScreen)
    }

    private func showOrigin(_ control: SettingControl, _ origin: SettingOrigin) {
        let label = ui.widget(control.id + "_origin")
        switch origin {
        case .user: label.setLabel(L("Yours"))
        case .administrator(let path):
            label.setLabel(L("Administrator default"))
            label.setTooltip(L("Set in %s; your choice here wins.", path))
        case .environment(let variable): label.setLabel(L("From %s", variable))
        case .builtIn: label.setLabel(L("Default"))
        }
    }

    /// What GNOME's lock screen would show of a sample call.
    private func showPreview(_ privacy: LockScreenPrivacy) {
        let card = privacy.card(label: L("Ada (a sample call)"), proxyNumber: "+2348000000001")
        let title = ui.widget("lock_preview_title")
        let detail = ui.widget("lock_preview_detail")
        if card.visible {
            title.setLabel(card.label.isEmpty ? L("Call · Verified") : card.label)
            detail.setLabel([card.number, L("Verified"), "02:14"].filter { !$0.isEmpty }.joined(separator: " · "))
        } else {
            title.setLabel(L("No call card"))
            detail.setLabel(L("The lock screen shows nothing of calls"))
        }
    }

    private func changed(_ control: SettingControl, to value: String) {
        guard !loading else { return }
        let error = control.kind.isText ? ui.widget(control.id + "_error") : nil
        error?.isVisible = false
        do {
            var merged = try AgentSettingsLayers.load(userPath: configPath).merged
            merged[control.key] = value
            _ = try AgentSettings(file: merged, environment: [:])
        } catch let problem as SettingsError {
            let text = L("Not saved: %s", problem.message)
            if let error {
                error.setLabel(text)
                error.isVisible = true
            } else {
                ui.widget("toasts").showToast(text)
            }
            return
        } catch {
            ui.widget("toasts").showToast(L("Not saved: %s", "\(error)"))
            return
        }
        do {
            try AgentSettingsWriter.set([(control.key, value)], path: configPath)
        } catch {
            ui.widget("toasts").showToast(L("Not saved: %s", error.description))
            return
        }
        if control.key == Setting.topBar.key { switchTopBar(value == TopBarAnswer.on.rawValue) }
        if control.key == Setting.kdePanel.key { switchKDEPanel(value == PlasmaPanelAnswer.on.rawValue) }
        reload()
    }

    private func autostartChanged(_ on: Bool) {
        guard !loading else { return }
        do {
            try AutostartEntry.set(on)
        } catch {
            ui.widget("toasts").showToast(L("Not saved: %s", error.description))
        }
        reload()
    }

    /// The Plasma widget in the panel beside the tray, or out of every panel, through
    /// plasmashell's scripting (as the agent's question adds it).
    private func switchKDEPanel(_ on: Bool) {
        guard let bus, desktop.isKDE else { return }
        PlasmaShellScript.evaluate(on ? PlasmaPanelOffer.addScript : PlasmaPanelOffer.removeScript, on: bus) {
            output in
            Log.info("kde panel: \(on ? "adding" : "removing") the widget: \(output ?? "no answer from plasmashell")")
        }
    }

    /// GNOME's own switch for the extension, as the Extensions app flips it.
    private func switchTopBar(_ on: Bool) {
        guard let bus, desktop.isGNOME else { return }
        if on {
            ShellExtensions.status(on: bus) { status in
                ShellExtensions.enable(on: bus, status: status) { _ in }
            }
        } else {
            bus.callAsync(
                destination: ShellExtensions.busName, path: ShellExtensions.path, interface: ShellExtensions.interface,
                method: "DisableExtension", arguments: [.string(TopBarOffer.extensionUUID)], autoStart: false,
                timeoutMilliseconds: ShellExtensions.timeoutMilliseconds
            ) { result in
                if case .failure(let error) = result { Log.warning("top bar: DisableExtension failed: \(error)") }
            }
        }
    }
}
