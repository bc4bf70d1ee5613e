import Foundation
import RelavoiDBus

/// plasmashell's scripting interface (`org.kde.PlasmaShell.evaluateScript`) as
/// python3-dbusmock plays it on the test's bus: the probe script (the one that reads
/// `applicationVersion`) prints `probe`, any other script prints `added`; every script is
/// recorded.
@MainActor
final class StandInPlasmaShell {
    private let mock: DBusMockStandIn

    init(probe: String) throws {
        mock = try DBusMockStandIn(name: "org.kde.plasmashell", path: "/PlasmaShell", interface: "org.kde.PlasmaShell")
        try mock.addMethod(
            "evaluateScript", in: "s", out: "s",
            code: "ret = '\(probe)' if 'applicationVersion' in args[0] else 'added'")
    }

    /// The scripts evaluateScript ran, in order.
    func scripts() -> [String] {
        (mock.calls("evaluateScript") ?? []).compactMap { $0.first?.stringValue }
    }

    func stop() { mock.stop() }
}
