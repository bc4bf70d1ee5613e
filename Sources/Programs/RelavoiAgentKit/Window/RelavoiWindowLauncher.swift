import RelavoiCore
import RelavoiDBus
import RelavoiGLib

/// Opens the Relavoi window (`relavoi-window`) on one page from the agent: its
/// `app.show-page` action through `org.freedesktop.Application.ActivateAction`. The
/// window is DBusActivatable, so the bus starts it when it is not running; the agent
/// links no GTK and does not wait: the call is asynchronous and bounded.
@MainActor
public enum RelavoiWindowLauncher {
    /// Long enough for a cold start of the window (about half a second here), short
    /// enough that a window that never answers is logged, not waited on for 25 s.
    static let timeoutMilliseconds: Int32 = 10000

    public static func open(_ page: RelavoiWindowAddress.Page, bus: BusConnection?) {
        guard let bus else {
            Log.warning("cannot open the Relavoi window: no session bus")
            return
        }
        bus.callAsync(
            destination: RelavoiWindowAddress.applicationID, path: RelavoiWindowAddress.objectPath,
            interface: "org.freedesktop.Application", method: "ActivateAction",
            arguments: [
                .string(RelavoiWindowAddress.showPageAction),
                .array(elementSignature: "v", [.variant(.string(page.rawValue))]),
                .array(elementSignature: "{sv}", []),
            ],
            timeoutMilliseconds: timeoutMilliseconds
        ) { result in
            switch result {
            case .success: Log.info("opened the Relavoi window on \(page.rawValue)")
            case .failure(let error): Log.warning("cannot open the Relavoi window (relavoi-window): \(error)")
            }
        }
    }
}
