import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiGtk
import RelavoiI18n
import RelavoiSettings

/// The Relavoi window: one instance on the desktop (GApplication `com.relavoi.Agent.Settings`;
/// a second launch raises the first), three pages, the agent followed over D-Bus.
@MainActor
public final class RelavoiWindow {
    private let application = AdwaitaApplication(id: RelavoiWindowAddress.applicationID)
    private let configPath = AgentSettingsFile.defaultPath
    private var ui: UIBuilder?
    private var window: Widget?
    private var signIn: SignInPage?
    private var status: StatusPage?
    private var settings: SettingsPage?
    private var agent: AgentWatch?
    private var settingsWatch: FileChangeWatch?
    private var requestedPage: RelavoiWindowAddress.Page?

    /// `relavoi-window [--page sign-in|status|settings]`; the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        Localization.setUp()
        var page: RelavoiWindowAddress.Page?
        var rest = arguments
        if let at = rest.firstIndex(where: { $0 == "--page" || $0.hasPrefix("--page=") }) {
            let value =
                rest[at].hasPrefix("--page=")
                ? String(rest[at].dropFirst(7)) : (rest.count > at + 1 ? rest[at + 1] : "")
            guard let named = RelavoiWindowAddress.Page(rawValue: value) else {
                StandardStreams.error("relavoi-window: --page takes sign-in, status or settings\n")
                return 2
            }
            page = named
            rest.removeSubrange(at...(rest[at].hasPrefix("--page=") ? at : min(at + 1, rest.count - 1)))
        }
        if rest.contains("--help") || rest.contains("-h") {
            StandardStreams.output(
                "Usage: relavoi-window [--page sign-in|status|settings]\n\n"
                    + L("The Relavoi window: sign in, see the connection and calls, change settings.") + "\n")
            return 0
        }
        let app = RelavoiWindow()
        return app.run(page: page, arguments: rest)
    }

    private func run(page: RelavoiWindowAddress.Page?, arguments: [String]) -> Int32 {
        application.onActivate { [weak self] in self?.present(page: nil) }
        application.addAction(RelavoiWindowAddress.showPageAction) { [weak self] name in
            self?.present(page: RelavoiWindowAddress.Page(rawValue: name))
        }
        if let page {
            // Another instance runs: it opens the page and this one ends.
            if application.registerIsRemote() {
                application.activateAction(RelavoiWindowAddress.showPageAction, page.rawValue)
                return 0
            }
            requestedPage = page
        }
        return application.run(arguments: arguments)
    }

    private func present(page: RelavoiWindowAddress.Page?) {
        if let page { requestedPage = page }
        if window == nil { build() }
        if let page { show(page) }
        window?.present()
    }

    private func show(_ page: RelavoiWindowAddress.Page) {
        ui?.widget("stack").visiblePage = page.rawValue
        if page == .signIn { signIn?.focusFirstField() }
    }

    private func build() {
        let ui: UIBuilder
        do {
            ui = try UIBuilder(path: WindowDataFiles.folder + "/" + WindowDataFiles.uiFile, domain: Localization.domain)
        } catch {
            StandardStreams.error("relavoi-window: \(error)\n")
            return
        }
        self.ui = ui
        if let icons = WindowDataFiles.buildTreeIconFolder { Widget.addIconSearchPath(icons) }
        Widget.setDefaultIcon(RelavoiIcon.name)
        WindowStyle.apply()
        let window = ui.widget("window")
        self.window = window
        application.adopt(window)
        let bus = try? BusConnection.session()
        if let bus {
            signIn = SignInPage(ui: ui, bus: bus, configPath: configPath) { [weak self] in
                self?.settings?.reload()
                self?.agent?.refresh()
            }
        }
        status = StatusPage(ui: ui, window: window, configPath: configPath) { [weak self] in self?.show(.signIn) }
        settings = SettingsPage(ui: ui, window: window, bus: bus, configPath: configPath)
        if let bus {
            agent = AgentWatch(bus: bus) { [weak self] state in self?.agentChanged(state) }
        }
        // Another program (or the person with an editor) changed the file: show it.
        settingsWatch = FileChangeWatch(path: configPath) { [weak self] in
            self?.settings?.reload()
        }
        // A debug line (G_MESSAGES_DEBUG=relavoi): how long the person waited for the window.
        window.onFirstFrame {
            if let seconds = ProgramRun.secondsSinceProcessStart() {
                Log.debug("first frame \(Int(seconds * 1000)) ms after start")
            }
        }
        // Nothing set up yet: the window opens where that is done.
        let configured = (try? AgentSettingsLayers.load(userPath: configPath).merged[Setting.apiKey.key]) != nil
        show(requestedPage ?? (configured ? .status : .signIn))
    }

    private func agentChanged(_ state: AgentState) {
        status?.show(state)
        if state.canShowCalls, signIn?.pressedAt != nil {
            signIn?.connected()
            show(.status)
        }
    }
}
