import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// A question the running agent asks once, as a notice with a yes and a "No, thanks", and
/// whose answer it keeps in agent.conf (`setting`), so that nothing asks it again: yes saves
/// `on` and does what the question offers, no saves `off` and does nothing. Closing it
/// unanswered leaves the question for the next start. `TopBarQuestion` and
/// `PlasmaPanelQuestion` say when to ask, in which words, and what a yes does.
@MainActor
struct ConsentQuestion<Answer: ConsentAnswer> {
    /// Where the answer goes (its key from the settings table).
    let setting: Setting
    /// The log lines' first words ("top bar").
    let topic: String
    /// Where a yes puts the calls, for the log ("the top bar").
    let place: String
    let summary: String
    let body: String
    let yesLabel: String
    /// The notice's key.
    let noticeKey: String
    /// The buttons' ids.
    let yes: String
    let no: String

    /// - Parameter id: names the notice (`notice:ID`) and its buttons (`ID-on`, `ID-off`).
    init(id: String, setting: Setting, topic: String, place: String, summary: String, body: String, yesLabel: String) {
        self.setting = setting
        self.topic = topic
        self.place = place
        self.summary = summary
        self.body = body
        self.yesLabel = yesLabel
        noticeKey = "notice:\(id)"
        yes = "\(id)-on"
        no = "\(id)-off"
    }

    /// Not asked this time, and why: a debug line, or with `loudly` one the log keeps.
    func skip(_ why: String, loudly: Bool = false) {
        if loudly { Log.message("\(topic): not asking: \(why)") } else { Log.debug("\(topic): not asking (\(why))") }
    }

    /// Shows the question; a yes saves `on` and runs `onYes`.
    func ask(configPath: String, onYes: @escaping @MainActor () -> Void) {
        Log.info("\(topic): asking whether to show the calls in \(place)")
        let question = AgentNotice(
            summary: summary, body: body,
            buttons: [
                NotificationButton(id: yes, label: yesLabel),
                NotificationButton(id: no, label: L("No, thanks")),
            ])
        BannerDriver.shared.showNotice(question, key: noticeKey) { button in
            switch button {
            case yes:
                save(.on, configPath: configPath)
                onYes()
            case no:
                save(.off, configPath: configPath)
                Log.message("\(topic): the person said no; not asking again")
            default:
                Log.info("\(topic): the question was closed unanswered; it is asked again at the next start")
            }
        }
    }

    /// A notice after the answer, in the question's place (it goes like an ordinary notification).
    func follow(with notice: AgentNotice) {
        BannerDriver.shared.showNotice(notice, key: noticeKey)
    }

    func save(_ answer: Answer, configPath: String) {
        do {
            try AgentSettingsWriter.set([(setting.key, answer.rawValue)], path: configPath)
        } catch {
            Log.warning("\(topic): could not save \(setting.key) = \(answer.rawValue) in \(configPath): \(error)")
        }
    }
}
