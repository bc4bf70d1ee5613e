import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiGtk
import RelavoiI18n
import RelavoiSettings

/// The Status page: the connection as the agent's `Health` says it, the calls in
/// progress with their timers, the missed calls, and Sign out.
@MainActor
package final class StatusPage {
    private let ui: UIBuilder
    private let window: Widget
    private let configPath: String
    private let onSignInAgain: @MainActor () -> Void
    private var callRows: [(row: Widget, suffix: Widget, call: CallsReading.Call)] = []
    private var missedRows: [Widget] = []
    private var ticker: GLibTimer?
    private var state = AgentState()

    package init(
        ui: UIBuilder, window: Widget, configPath: String, onSignInAgain: @escaping @MainActor () -> Void
    ) {
        self.ui = ui
        self.window = window
        self.configPath = configPath
        self.onSignInAgain = onSignInAgain
        ui.widget("sign_in_again_button").on("clicked") { [weak self] in self?.onSignInAgain() }
        ui.widget("sign_out_button").on("clicked") { [weak self] in self?.askSignOut() }
        ticker = GLibTimer.repeating(every: 1) { [weak self] in MainActor.assumeIsolated { self?.tick() } }
        show(AgentState())
    }

    isolated deinit { ticker?.cancel() }

    /// The line for the agent's state, and whether the person has to sign in.
    package static func line(_ state: AgentState) -> (title: String, subtitle: String, signIn: String?) {
        switch state.canShowCalls ? "connected" : state.health {
        case nil:
            return (L("Relavoi is not running"), L("It starts when you sign in, or when you next log in."), nil)
        case "connected":
            return (L("Connected"), L("Calls on your Relavoi numbers show as they ring."), nil)
        case "offline":
            let time = state.since.map(LocalClock.hoursMinutes) ?? "?"
            return (L("Offline since %s", time), L("Calls will not show until Relavoi's server answers again."), nil)
        case "refused":
            return (
                L("Key refused"), L("Relavoi refused this computer's API key: calls will not show."), L("Sign in again")
            )
        case "not-set-up":
            return (L("Not set up"), L("Sign in to see your calls on this computer."), L("Sign in"))
        default:
            return (L("Connecting…"), L("Relavoi is reaching its server."), nil)
        }
    }

    package func show(_ state: AgentState) {
        self.state = state
        let line = Self.line(state)
        let row = ui.widget("health_row")
        row.setTitle(line.title)
        row.setSubtitle(line.subtitle)
        let button = ui.widget("sign_in_again_button")
        button.isVisible = line.signIn != nil
        if let label = line.signIn { button.setButtonLabel(label) }
        let key = (try? AgentSettingsLayers.load(userPath: configPath).merged[Setting.apiKey.key]) ?? nil
        let account = ui.widget("account_row")
        account.setSubtitle(key.map { String($0.prefix(16)) + "…" } ?? L("Not signed in"))
        ui.widget("sign_out_button").isSensitive = key != nil
        showCalls(state)
    }

    private func showCalls(_ state: AgentState) {
        let calls = ui.widget("calls_group")
        for entry in callRows { calls.removeRow(entry.row) }
        callRows = state.inProgress.map { call in
            let made = Widget.actionRow(
                title: call.label.isEmpty ? call.proxyNumber : call.label, subtitle: CallTimerText.subtitle(call),
                suffix: CallTimerText.suffix(call, now: Date()))
            calls.addRow(made.row)
            return (made.row, made.suffix, call)
        }
        calls.setDescription(callRows.isEmpty ? L("None right now") : nil)
        let missed = ui.widget("missed_group")
        for row in missedRows { missed.removeRow(row) }
        missedRows = state.missed.map { call in
            let time =
                call.endedAtMilliseconds > 0
                ? LocalClock.hoursMinutes(Date(timeIntervalSince1970: Double(call.endedAtMilliseconds) / 1000)) : ""
            let made = Widget.actionRow(
                title: call.label.isEmpty ? call.proxyNumber : call.label, subtitle: CallTimerText.subtitle(call),
                suffix: time)
            missed.addRow(made.row)
            return made.row
        }
        missed.setDescription(missedRows.isEmpty ? L("None") : nil)
    }

    private func tick() {
        let now = Date()
        for entry in callRows where entry.call.phase == "live" {
            entry.suffix.setLabel(CallTimerText.suffix(entry.call, now: now))
        }
    }

    private func askSignOut() {
        window.confirm(
            heading: L("Sign out of Relavoi?"),
            body: L(
                "This computer forgets the API key and secret, and calls stop showing here until you sign in again."),
            cancel: L("Cancel"), confirm: L("Sign out"), destructive: true
        ) { [weak self] yes in
            if yes { self?.signOut() }
        }
    }

    private func signOut() {
        guard let key = (try? AgentSettingsLayers.load(userPath: configPath).user[Setting.apiKey.key]) ?? nil else {
            return
        }
        var problem: String?
        do {
            try Keyring.clear(apiKey: key)
        } catch {
            problem = error.description
        }
        do {
            try AgentSettingsWriter.remove([Setting.apiKey.key], path: configPath)
        } catch {
            problem = error.description
        }
        ui.widget("toasts").showToast(problem.map { L("Not everything was removed: %s", $0) } ?? L("Signed out"))
        show(state)
    }
}
