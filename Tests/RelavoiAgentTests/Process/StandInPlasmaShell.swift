import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// plasmashell's scripting interface (`org.kde.PlasmaShell.evaluateScript`) as
/// python3-dbusmock plays it on the test's bus: the probe script (the one that reads
/// `applicationVersion`) prints `probe`, any other script prints `added`; every script is
/// recorded.
@MainActor
final class StandInPlasmaShell {
    let process = Process()
    private let bus: BusConnection
    static let name = "org.kde.plasmashell"
    static let path = "/PlasmaShell"
    static let interface = "org.kde.PlasmaShell"

    init(probe: String) throws {
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
                .string(Self.interface), .string("evaluateScript"), .string("s"), .string("s"),
                .string("ret = '\(probe)' if 'applicationVersion' in args[0] else 'added'"),
            ],
            timeoutMilliseconds: 5000)
    }

    /// The scripts evaluateScript ran, in order.
    func scripts() -> [String] {
        guard
            let reply = try? bus.call(
                destination: Self.name, path: Self.path, interface: "org.freedesktop.DBus.Mock",
                method: "GetMethodCalls", arguments: [.string("evaluateScript")], replyType: "(a(tav))",
                timeoutMilliseconds: 5000)
        else { return [] }
        return (reply.children?.first?.children ?? []).compactMap { call in
            guard case .variant(.string(let script))? = call.children?.last?.children?.first else { return nil }
            return script
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(Self.name) }
    }
}
