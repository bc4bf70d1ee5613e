import Foundation
import RelavoiDBus

/// GNOME Shell's `org.gnome.Shell.Extensions` as python3-dbusmock plays it on the test's
/// bus: `GetExtensionInfo` answers what the test says, `EnableExtension` answers
/// `enableAnswer` and is recorded, `UserExtensionsEnabled` is a property.
@MainActor
final class StandInGnomeShell {
    private let mock: DBusMockStandIn

    /// - Parameters:
    ///   - state: the extension's `state` in `GetExtensionInfo` (1 on, 2 off, 4 out of
    ///     date); nil: an empty answer (the shell does not know the extension).
    /// - enableFails: `EnableExtension` answers an error (a locked-down session).
    init(state: Int?, enableAnswer: Bool = true, enableFails: Bool = false, userExtensionsEnabled: Bool = true) throws {
        mock = try DBusMockStandIn(
            name: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions")
        let info = state.map { "{'uuid': 'relavoi@relavoi.com', 'state': dbus.Double(\($0)), 'error': ''}" } ?? "{}"
        try mock.addMethod(
            "GetExtensionInfo", in: "s", out: "a{sv}", code: "ret = dbus.Dictionary(\(info), signature='sv')")
        let enable =
            enableFails
            ? "raise dbus.exceptions.DBusException('locked down', name='org.freedesktop.DBus.Error.AccessDenied')"
            : "ret = \(enableAnswer ? "True" : "False")"
        try mock.addMethod("EnableExtension", in: "s", out: "b", code: enable)
        try mock.addProperty("UserExtensionsEnabled", .bool(userExtensionsEnabled))
    }

    /// The uuids `EnableExtension` was called with, in order.
    func enableCalls() -> [String] {
        (mock.calls("EnableExtension") ?? []).compactMap { $0.first?.stringValue }
    }

    func stop() { mock.stop() }
}
