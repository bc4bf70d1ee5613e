import FoundationEssentials
import RelavoiBanners
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// "Show calls in the panel?": asked once, as a notification, by a running agent on KDE
/// Plasma 6.4+ while the widget com.relavoi.call is installed, in no panel, and nobody has
/// answered (`kde-panel = ask`), as `TopBarQuestion` does on GNOME. Yes adds the widget to
/// the panel that holds the system tray, just before the tray, through plasmashell's
/// scripting (`org.kde.PlasmaShell.evaluateScript`); no changes nothing. The answer goes
/// into agent.conf. Closing it unanswered leaves the question for the next start.
@MainActor
enum PlasmaPanelQuestion {
    static let noticeKey = "notice:kde-panel"
    static let yes = "kde-panel-on"
    static let no = "kde-panel-off"

    static func start(settings: AgentSettings, configPath: String, bus: BusConnection?, environment: [String: String]) {
        guard let bus else { return }
        let isKDE = PlasmaPanelOffer.isKDEDesktop(environment)
        let known = PlasmaPanelOffer.Shell(version: "6.4", widgetInstalled: true, widgetInPanel: false)
        if case .skip(let why) = PlasmaPanelOffer.decide(answer: settings.plasmaPanel, isKDE: isKDE, shell: known) {
            Log.debug("kde panel: not asking (\(why))")
            return
        }
        PlasmaShellScript.evaluate(PlasmaPanelOffer.probeScript, on: bus) { output in
            let shell = output.flatMap(PlasmaPanelOffer.parseProbe)
            switch PlasmaPanelOffer.decide(answer: settings.plasmaPanel, isKDE: isKDE, shell: shell) {
            case .skip(let why):
                Log.message("kde panel: not asking: \(why)")
            case .ask:
                Log.info("kde panel: asking whether to show the calls in the panel")
                let question = AgentNotice(
                    summary: L("Show calls in the panel?"),
                    body: L("Your call's timer and badge in the panel, next to the system tray."),
                    buttons: [
                        NotificationButton(id: yes, label: L("Show in panel")),
                        NotificationButton(id: no, label: L("No, thanks")),
                    ])
                BannerDriver.shared.showNotice(question, key: noticeKey) { button in
                    answered(button, configPath: configPath, bus: bus)
                }
            }
        }
    }

    private static func answered(_ button: String?, configPath: String, bus: BusConnection) {
        switch button {
        case yes:
            save(.on, configPath: configPath)
            PlasmaShellScript.evaluate(PlasmaPanelOffer.addScript, on: bus) { output in
                let outcome = output?.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "no answer"
                Log.message("kde panel: adding the widget: \(outcome)")
                if outcome != "added" && outcome != "present" {
                    BannerDriver.shared.showNotice(
                        AgentNotice(
                            summary: L("The widget could not be added to the panel"),
                            body: L("Add \"Relavoi calls\" from the panel's Add Widgets… menu."), lasting: false),
                        key: noticeKey)
                }
            }
        case no:
            save(.off, configPath: configPath)
            Log.message("kde panel: the person said no; not asking again")
        default:
            Log.info("kde panel: the question was closed unanswered; it is asked again at the next start")
        }
    }

    static func save(_ answer: PlasmaPanelAnswer, configPath: String) {
        do {
            try AgentSettingsWriter.set([(Setting.kdePanel.key, answer.rawValue)], path: configPath)
        } catch {
            Log.warning(
                "kde panel: could not save \(Setting.kdePanel.key) = \(answer.rawValue) in \(configPath): \(error)"
            )
        }
    }
}
