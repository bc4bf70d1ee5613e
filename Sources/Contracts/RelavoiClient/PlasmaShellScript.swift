import RelavoiDBus
import RelavoiGLib

/// Runs a script in plasmashell (`org.kde.PlasmaShell.evaluateScript`, Plasma's desktop
/// scripting): the agent's panel question and the window's switch add or remove the
/// widget with it (`PlasmaPanelOffer`'s scripts).
package enum PlasmaShellScript {
    package static let busName = "org.kde.plasmashell"
    package static let path = "/PlasmaShell"
    package static let interface = "org.kde.PlasmaShell"
    static let timeoutMilliseconds: Int32 = 10000

    /// `done` hears what the script printed, or nil when plasmashell does not answer.
    @MainActor
    package static func evaluate(
        _ script: String, on bus: BusConnection, done: @escaping @MainActor (String?) -> Void
    ) {
        bus.callAsync(
            destination: busName, path: path, interface: interface, method: "evaluateScript",
            arguments: [.string(script)], autoStart: false, timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .failure(let error):
                Log.debug("kde panel: plasmashell does not run the script (\(error))")
                done(nil)
            case .success(let reply):
                done(reply.children?.first?.stringValue)
            }
        }
    }
}
