import Foundation
import RelavoiDBus
import RelavoiTestSupport
import XCTest

/// The desktop portal (`org.freedesktop.portal.Desktop`) as python3-dbusmock plays it on
/// the test's bus: `OpenURI` answers a request handle and is recorded, so a test sees what
/// the agent asked the portal to open, and with which options.
@MainActor
final class StandInPortal {
    static let name = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.OpenURI"
    let process = Process()
    private let bus: BusConnection

    init() throws {
        bus = try BusConnection.session()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", Self.name, Self.path, Self.interface]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 15, { self.bus.nameHasOwner(Self.name) }) else {
            throw XCTSkip("python3-dbusmock did not start")
        }
        _ = try bus.call(
            destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock", method: "AddMethod",
            arguments: [
                .string(Self.interface), .string("OpenURI"), .string("ssa{sv}"), .string("o"),
                .string("ret = dbus.ObjectPath('/org/freedesktop/portal/desktop/request/1_1/relavoi')"),
            ],
            timeoutMilliseconds: 5000)
    }

    /// Each `OpenURI` so far: its URI and its options' string values.
    func opened() -> [(uri: String, options: [String: String])] {
        guard
            let reply = try? bus.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                method: "GetMethodCalls", arguments: [.string("OpenURI")], replyType: "(a(tav))",
                timeoutMilliseconds: 5000)
        else { return [] }
        return (reply.children?.first?.children ?? []).compactMap { call in
            let arguments = call.children?.last?.children ?? []
            guard arguments.count == 3, case .variant(.string(let uri)) = arguments[1] else { return nil }
            var options: [String: String] = [:]
            if case .variant(.array(_, let entries)) = arguments[2] {
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

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(Self.name) }
    }
}
