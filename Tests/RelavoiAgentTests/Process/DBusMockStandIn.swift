import Foundation
import RelavoiDBus
import RelavoiTestSupport
import XCTest

/// One D-Bus object as python3-dbusmock plays it on the test's bus (`python3 -m dbusmock
/// NAME PATH INTERFACE`): started, given methods and properties, asked what it was called
/// with, stopped. Each stand-in (`StandInPortal`, `StandInPlasmaShell`, …) holds one and
/// says only what its object does.
@MainActor
final class DBusMockStandIn {
    static let mockInterface = "org.freedesktop.DBus.Mock"

    let name: String
    let path: String
    let interface: String
    let bus: BusConnection
    private let process = Process()

    /// Starts the mock and waits until it owns `name`; skips the test when it does not.
    init(name: String, path: String, interface: String) throws {
        self.name = name
        self.path = path
        self.interface = interface
        bus = try BusConnection.session()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", name, path, interface]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 15, { self.bus.nameHasOwner(name) }) else {
            throw XCTSkip("python3-dbusmock did not start")
        }
    }

    /// `method` on the object's interface runs `code` (python: `args` in, `ret` out).
    func addMethod(_ method: String, in inSignature: String = "", out outSignature: String = "", code: String) throws {
        _ = try call(
            Self.mockInterface, "AddMethod",
            [.string(interface), .string(method), .string(inSignature), .string(outSignature), .string(code)])
    }

    func addProperty(_ property: String, _ value: DBusValue) throws {
        _ = try call(Self.mockInterface, "AddProperty", [.string(interface), .string(property), .variant(value)])
    }

    /// The arguments of each call of `method` so far, in order, out of their variants; nil
    /// when the mock did not answer.
    func calls(_ method: String) -> [[DBusValue]]? {
        guard
            let reply = try? call(Self.mockInterface, "GetMethodCalls", [.string(method)], replyType: "(a(tav))"),
            let calls = reply.children?.first?.children
        else { return nil }
        return calls.map { call in
            (call.children?.last?.children ?? []).map { argument in
                if case .variant(let value) = argument { value } else { argument }
            }
        }
    }

    /// A call to the object itself (5 s at most).
    func call(_ interface: String, _ method: String, _ arguments: [DBusValue], replyType: String = "()") throws
        -> DBusValue
    {
        try bus.call(
            destination: name, path: path, interface: interface, method: method, arguments: arguments,
            replyType: replyType, timeoutMilliseconds: 5000)
    }

    /// Gone from the bus, as a program that quits or crashes.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(self.name) }
    }
}
