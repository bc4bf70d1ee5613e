import FoundationEssentials
import RelavoiBanners
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// "Show Relavoi calls in the top bar?": asked once, as a notification, by a running agent
/// on GNOME while the extension is installed but off and nobody has answered
/// (`gnome-top-bar = ask`). The answer goes into agent.conf; yes turns the extension on
/// through GNOME Shell. At most one question per run: closing it unanswered leaves the
/// question for the next start.
@MainActor
enum TopBarQuestion {
    static let noticeKey = "notice:top-bar"
    static let yes = "top-bar-on"
    static let no = "top-bar-off"

    static func start(settings: AgentSettings, configPath: String, bus: BusConnection?, environment: [String: String]) {
        guard let bus else { return }
        let isGNOME = ShellExtensions.isGNOMEDesktop(environment)
        // Nothing to find out when the answer is known or this is not GNOME.
        if case .skip(let why) = TopBarOffer.decide(answer: settings.topBar, isGNOME: isGNOME, status: .disabled) {
            Log.debug("top bar: not asking (\(why))")
            return
        }
        ShellExtensions.status(on: bus) { status in
            switch TopBarOffer.decide(answer: settings.topBar, isGNOME: isGNOME, status: status) {
            case .skip(let why):
                // A shell that is missing, locked down or refuses the extension: one line, once.
                switch status {
                case .refused, .noShell, .extensionsOff: Log.message("top bar: not asking: \(why)")
                default: Log.debug("top bar: not asking (\(why))")
                }
            case .ask:
                Log.info("top bar: asking whether to show the calls in the top bar")
                let question = AgentNotice(
                    summary: L("Show Relavoi calls in the top bar?"),
                    body: L("Your call's timer and badge, next to the clock."),
                    buttons: [
                        NotificationButton(id: yes, label: L("Show in top bar")),
                        NotificationButton(id: no, label: L("No, thanks")),
                    ])
                BannerDriver.shared.showNotice(question, key: noticeKey) { button in
                    answered(button, status: status, configPath: configPath, bus: bus)
                }
            }
        }
    }

    private static func answered(_ button: String?, status: TopBarOffer.Status, configPath: String, bus: BusConnection)
    {
        switch button {
        case yes:
            save(.on, configPath: configPath)
            ShellExtensions.enable(on: bus, status: status) { outcome in
                Log.message("top bar: \(describe(outcome))")
                BannerDriver.shared.showNotice(notice(for: outcome), key: noticeKey)
            }
        case no:
            save(.off, configPath: configPath)
            Log.message("top bar: the person said no; not asking again")
        default:
            Log.info("top bar: the question was closed unanswered; it is asked again at the next start")
        }
    }

    /// What the person reads after a yes (it goes like an ordinary notification).
    static func notice(for outcome: TopBarOffer.Outcome) -> AgentNotice {
        switch outcome {
        case .onNow:
            return AgentNotice(
                summary: L("Relavoi calls are in the top bar"), body: L("Turn them off in the Extensions app."),
                lasting: false)
        case .onAtNextLogin:
            return AgentNotice(
                summary: L("Relavoi calls will be in the top bar after you next log in"),
                body: L("GNOME Shell loads an extension installed during this session at the next login."),
                lasting: false)
        case .failed(let why):
            return AgentNotice(
                summary: L("The top bar could not be turned on"),
                body: L("Turn on \"Relavoi calls\" in the Extensions app (%s).", why), lasting: false)
        }
    }

    /// The log's words (English).
    static func describe(_ outcome: TopBarOffer.Outcome) -> String {
        switch outcome {
        case .onNow: return "the extension is on"
        case .onAtNextLogin:
            return "the extension is turned on for the next login (the running shell does not know it yet)"
        case .failed(let why): return "the extension could not be turned on: \(why)"
        }
    }

    static func save(_ answer: TopBarAnswer, configPath: String) {
        do {
            try AgentSettingsWriter.set([(Setting.topBar.key, answer.rawValue)], path: configPath)
        } catch {
            Log.warning(
                "top bar: could not save \(Setting.topBar.key) = \(answer.rawValue) in \(configPath): \(error)")
        }
    }
}
