import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// "Show Relavoi calls in the top bar?": asked once (a `ConsentQuestion`) by a running agent
/// on GNOME while the extension is installed but off and nobody has answered
/// (`gnome-top-bar = ask`). Yes turns the extension on through GNOME Shell.
@MainActor
enum TopBarQuestion {
    static func start(settings: AgentSettings, configPath: String, bus: BusConnection?, environment: [String: String]) {
        guard let bus else { return }
        let question = Self.question
        let isGNOME = CurrentDesktop(environment: environment).isGNOME
        // Nothing to find out when the answer is known or this is not GNOME.
        if case .skip(let why) = TopBarOffer.decide(answer: settings.topBar, isGNOME: isGNOME, status: .disabled) {
            question.skip(why)
            return
        }
        ShellExtensions.status(on: bus) { status in
            switch TopBarOffer.decide(answer: settings.topBar, isGNOME: isGNOME, status: status) {
            case .skip(let why):
                // A shell that is missing, locked down or refuses the extension: one line, once.
                switch status {
                case .refused, .noShell, .extensionsOff: question.skip(why, loudly: true)
                default: question.skip(why)
                }
            case .ask:
                question.ask(configPath: configPath) {
                    ShellExtensions.enable(on: bus, status: status) { outcome in
                        Log.message("top bar: \(describe(outcome))")
                        question.follow(with: notice(for: outcome))
                    }
                }
            }
        }
    }

    /// What the person reads after a yes.
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

    /// What it asks, in the words of the person's language.
    static var question: ConsentQuestion<TopBarAnswer> {
        ConsentQuestion(
            id: "top-bar", setting: .topBar, topic: "top bar", place: "the top bar",
            summary: L("Show Relavoi calls in the top bar?"),
            body: L("Your call's timer and badge, next to the clock."), yesLabel: L("Show in top bar"))
    }
}
