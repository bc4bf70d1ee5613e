import Foundation
import RelavoiDBus
import RelavoiTestSupport

/// The desktop portal (`org.freedesktop.portal.Desktop`) as python3-dbusmock plays it on
/// the test's bus: `OpenURI` answers a request handle and is recorded, so a test sees what
/// the agent asked the portal to open, and with which options.
@MainActor
final class StandInPortal {
    private let mock: DBusMockStandIn

    init() throws {
        mock = try DBusMockStandIn(
            name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
            interface: "org.freedesktop.portal.OpenURI")
        try mock.addMethod(
            "OpenURI", in: "ssa{sv}", out: "o",
            code: "ret = dbus.ObjectPath('/org/freedesktop/portal/desktop/request/1_1/relavoi')")
    }

    /// Each `OpenURI` so far: its URI and its options' string values.
    func opened() -> [(uri: String, options: [String: String])] {
        (mock.calls("OpenURI") ?? []).compactMap { arguments in
            guard arguments.count == 3, case .string(let uri) = arguments[1] else { return nil }
            var options: [String: String] = [:]
            if case .array(_, let entries) = arguments[2] {
                for case .dictEntry(.string(let key), .variant(.string(let value))) in entries { options[key] = value }
            }
            return (uri, options)
        }
    }

    /// Waits for the first `OpenURI`.
    func waitForOpened(timeout: Double = 30) -> (uri: String, options: [String: String])? {
        var first: (uri: String, options: [String: String])?
        _ = LoopWait.until(timeout: timeout) {
            first = self.opened().first
            return first != nil
        }
        return first
    }

    func stop() { mock.stop() }
}
