import Foundation
import RelavoiCore
import RelavoiDBus

/// The Relavoi window (`com.relavoi.Agent.Settings`) as python3-dbusmock plays it on the
/// test's bus: `org.freedesktop.Application.ActivateAction` is answered and recorded, so a
/// test sees which page the agent asked for without GTK.
@MainActor
final class StandInSettingsWindow {
    private let mock: DBusMockStandIn

    init() throws {
        mock = try DBusMockStandIn(
            name: RelavoiWindowAddress.applicationID, path: RelavoiWindowAddress.objectPath,
            interface: "org.freedesktop.Application")
        try mock.addMethod("ActivateAction", in: "sava{sv}", code: "")
    }

    /// The pages `app.show-page` was activated with, in order (other actions as "?NAME").
    func pagesAsked() -> [String] {
        (mock.calls("ActivateAction") ?? []).map { arguments in
            guard arguments.count == 3, case .string(let action) = arguments[0] else { return "?" }
            guard action == RelavoiWindowAddress.showPageAction,
                case .array(_, let parameters) = arguments[1],
                case .variant(.string(let page))? = parameters.first
            else { return "?\(action)" }
            return page
        }
    }

    func stop() { mock.stop() }
}
