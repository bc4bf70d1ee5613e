import FoundationEssentials
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiI18n
import RelavoiSettings

/// The top-bar question as `login` asks it, in the terminal, at the end of a login that
/// saved everything: on GNOME, while the extension is installed but off and
/// `gnome-top-bar` is still `ask`. The answer is saved in agent.conf, as the running
/// agent saves its own (`TopBarQuestion`), so neither asks again.
struct LoginTopBarQuestion {
    /// How `login` finds where the extension stands and turns it on; tests replace it.
    struct Shell {
        /// nil: not a GNOME desktop (nothing is asked).
        var status: () -> TopBarOffer.Status?
        var enable: (TopBarOffer.Status) -> TopBarOffer.Outcome

        /// No GNOME: what tests get unless they say otherwise.
        static var absent: Shell { Shell(status: { nil }, enable: { _ in .failed("no GNOME Shell") }) }

        /// This session's GNOME Shell, over D-Bus; the main loop turns until it answers.
        /// `login` runs on the main thread, before any main loop.
        static func session(environment: [String: String]) -> Shell {
            func wait<T: Sendable>(_ start: @MainActor (@escaping @MainActor (T) -> Void) -> Void) -> T? {
                MainActor.assumeIsolated {
                    var answer: T?
                    start { answer = $0 }
                    // Each call is bounded (ShellExtensions' 5 s timeout); this only stops the turning.
                    _ = MainLoop.iterate(timeout: 15) { answer != nil }
                    return answer
                }
            }
            return Shell(
                status: {
                    guard CurrentDesktop(environment: environment).isGNOME, let bus = try? BusConnection.session()
                    else {
                        return nil
                    }
                    return wait { done in ShellExtensions.status(on: bus, completion: done) } ?? .noShell
                },
                enable: { status in
                    guard let bus = try? BusConnection.session() else { return .failed("no session bus") }
                    return wait { done in ShellExtensions.enable(on: bus, status: status, completion: done) }
                        ?? .failed("GNOME Shell did not answer")
                })
        }
    }

    let io: LoginCommand.IO

    /// Asks, turns the extension on for a yes, saves the answer. `configured`: the
    /// `gnome-top-bar` value in agent.conf (nil when unset).
    func ask(configured: String?, configPath: String) {
        let answer = configured.flatMap { TopBarAnswer(rawValue: $0.lowercased()) } ?? .ask
        guard answer == .ask, let status = io.topBar.status(),
            TopBarOffer.decide(answer: answer, isGNOME: true, status: status) == .ask
        else { return }
        var yes: Bool?
        while yes == nil {
            // TRANSLATORS: the answer is read as y or n (yes, no) in every language: keep [Y/n].
            guard
                let line = io.readLine(
                    L("Show Relavoi calls in GNOME's top bar (the extension \"Relavoi calls\")? [Y/n] "), false)
            else { return }
            switch line.trimmingWhitespace().lowercased() {
            case "", "y", "yes": yes = true
            case "n", "no": yes = false
            default: io.err("relavoi-agent login: " + L("answer y or n"))
            }
        }
        let saved = yes == true ? TopBarAnswer.on : .off
        do {
            try AgentSettingsWriter.set([(Setting.topBar.key, saved.rawValue)], path: configPath)
        } catch {
            io.err("relavoi-agent login: " + L("the answer was NOT saved: %s", error.description))
        }
        guard yes == true else {
            io.out(L("Not in the top bar; you will not be asked again (%s in %s).", "gnome-top-bar = off", configPath))
            return
        }
        switch io.topBar.enable(status) {
        case .onNow: io.out(L("Relavoi calls are in the top bar."))
        case .onAtNextLogin: io.out(L("Relavoi calls will be in the top bar after you next log in."))
        case .failed(let why):
            io.err(
                "relavoi-agent login: "
                    + L(
                        "the top bar could not be turned on (%s); turn on \"Relavoi calls\" in the Extensions app.", why
                    ))
        }
    }
}
