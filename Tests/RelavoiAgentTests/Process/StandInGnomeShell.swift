import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// GNOME Shell's `org.gnome.Shell.Extensions` as python3-dbusmock plays it on the test's
/// bus: `GetExtensionInfo` answers what the test says, `EnableExtension` answers
/// `enableAnswer` and is recorded, `UserExtensionsEnabled` is a property.
@MainActor
final class StandInGnomeShell {
    let process = Process()
    private let bus: BusConnection
    static let name = "org.gnome.Shell"
    static let path = "/org/gnome/Shell"
    static let interface = "org.gnome.Shell.Extensions"

    /// - Parameters:
    ///   - state: the extension's `state` in `GetExtensionInfo` (1 on, 2 off, 4 out of
    ///     date); nil: an empty answer (the shell does not know the extension).
    /// - enableFails: `EnableExtension` answers an error (a locked-down session).
    init(state: Int?, enableAnswer: Bool = true, enableFails: Bool = false, userExtensionsEnabled: Bool = true) throws {
        bus = try BusConnection.session()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", Self.name, Self.path, Self.interface]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 15, { self.bus.nameHasOwner(Self.name) }) else {
            throw XCTSkip("python3-dbusmock did not start")
        }
        let info = state.map { "{'uuid': 'relavoi@relavoi.com', 'state': dbus.Double(\($0)), 'error': ''}" } ?? "{}"
        try addMethod("GetExtensionInfo", in: "s", out: "a{sv}", code: "ret = dbus.Dictionary(\(info), signature='sv')")
        let enable =
            enableFails
            ? "raise dbus.exceptions.DBusException('locked down', name='org.freedesktop.DBus.Error.AccessDenied')"
            : "ret = \(enableAnswer ? "True" : "False")"
        try addMethod("EnableExtension", in: "s", out: "b", code: enable)
        _ = try bus.call(
            destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", method: "AddProperty",
            arguments: [
                .string(Self.interface), .string("UserExtensionsEnabled"), .variant(.bool(userExtensionsEnabled)),
            ],
            timeoutMilliseconds: 5000)
    }

    private func addMethod(_ name: String, in inSignature: String, out outSignature: String, code: String) throws {
        _ = try bus.call(
            destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", method: "AddMethod",
            arguments: [
                .string(Self.interface), .string(name), .string(inSignature), .string(outSignature), .string(code),
            ],
            timeoutMilliseconds: 5000)
    }

    /// The uuids `EnableExtension` was called with, in order.
    func enableCalls() -> [String] {
        guard
            let reply = try? bus.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                method: "GetMethodCalls", arguments: [.string("EnableExtension")], replyType: "(a(tav))",
                timeoutMilliseconds: 5000)
        else { return [] }
        return (reply.children?.first?.children ?? []).compactMap { call in
            guard case .variant(.string(let uuid))? = call.children?.last?.children?.first else { return nil }
            return uuid
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(Self.name) }
    }
}
