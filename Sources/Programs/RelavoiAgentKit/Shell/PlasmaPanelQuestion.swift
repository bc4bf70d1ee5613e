import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// "Show calls in the panel?": asked once (a `ConsentQuestion`) by a running agent on KDE
/// Plasma 6.4+ while the widget com.relavoi.call is installed, in no panel, and nobody has
/// answered (`kde-panel = ask`), as `TopBarQuestion` does on GNOME. Yes adds the widget to
/// the panel that holds the system tray, just before the tray, through plasmashell's
/// scripting (`org.kde.PlasmaShell.evaluateScript`).
@MainActor
enum PlasmaPanelQuestion {
    static func start(settings: AgentSettings, configPath: String, bus: BusConnection?, environment: [String: String]) {
        guard let bus else { return }
        let question = Self.question
        let isKDE = CurrentDesktop(environment: environment).isKDE
        let known = PlasmaPanelOffer.Shell(version: "6.4", widgetInstalled: true, widgetInPanel: false)
        if case .skip(let why) = PlasmaPanelOffer.decide(answer: settings.plasmaPanel, isKDE: isKDE, shell: known) {
            question.skip(why)
            return
        }
        PlasmaShellScript.evaluate(PlasmaPanelOffer.probeScript, on: bus) { output in
            let shell = output.flatMap(PlasmaPanelOffer.parseProbe)
            switch PlasmaPanelOffer.decide(answer: settings.plasmaPanel, isKDE: isKDE, shell: shell) {
            case .skip(let why):
                question.skip(why, loudly: true)
            case .ask:
                question.ask(configPath: configPath) { addWidget(bus: bus, question: question) }
            }
        }
    }

    private static func addWidget(bus: BusConnection, question: ConsentQuestion<PlasmaPanelAnswer>) {
        PlasmaShellScript.evaluate(PlasmaPanelOffer.addScript, on: bus) { output in
            let outcome = output?.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "no answer"
            Log.message("kde panel: adding the widget: \(outcome)")
            if outcome != "added" && outcome != "present" {
                question.follow(
                    with: AgentNotice(
                        summary: L("The widget could not be added to the panel"),
                        body: L("Add \"Relavoi calls\" from the panel's Add Widgets… menu."), lasting: false))
            }
        }
    }

    /// What it asks, in the words of the person's language.
    static var question: ConsentQuestion<PlasmaPanelAnswer> {
        ConsentQuestion(
            id: "kde-panel", setting: .kdePanel, topic: "kde panel", place: "the panel",
            summary: L("Show calls in the panel?"),
            body: L("Your call's timer and badge in the panel, next to the system tray."), yesLabel: L("Show in panel"))
    }
}
