import Foundation
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// The Relavoi window (`com.relavoi.Agent.Settings`) as python3-dbusmock plays it on the
/// test's bus: `org.freedesktop.Application.ActivateAction` is answered and recorded, so a
/// test sees which page the agent asked for without GTK.
@MainActor
final class StandInSettingsWindow {
    let process = Process()
    private let bus: BusConnection

    init() throws {
        bus = try BusConnection.session()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-m", "dbusmock", RelavoiWindowAddress.applicationID, RelavoiWindowAddress.objectPath,
            "org.freedesktop.Application",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard LoopWait.until(timeout: 15, { self.bus.nameHasOwner(RelavoiWindowAddress.applicationID) }) else {
            throw XCTSkip("python3-dbusmock did not start")
        }
        _ = try bus.call(
            destination: RelavoiWindowAddress.applicationID, path: RelavoiWindowAddress.objectPath,
            interface: "org.freedesktop.DBus.Mock", method: "AddMethod",
            arguments: [
                .string("org.freedesktop.Application"), .string("ActivateAction"), .string("sava{sv}"), .string(""),
                .string(""),
            ],
            timeoutMilliseconds: 5000)
    }

    /// The pages `app.show-page` was activated with, in order (other actions as "?NAME").
    func pagesAsked() -> [String] {
        guard
            let reply = try? bus.call(
                destination: RelavoiWindowAddress.applicationID, path: RelavoiWindowAddress.objectPath,
                interface: "org.freedesktop.DBus.Mock", method: "GetMethodCalls",
                arguments: [.string("ActivateAction")],
                replyType: "(a(tav))", timeoutMilliseconds: 5000)
        else { return [] }
        return (reply.children?.first?.children ?? []).map { call in
            let arguments = call.children?.last?.children ?? []
            guard arguments.count == 3, case .variant(.string(let action)) = arguments[0] else { return "?" }
            guard action == RelavoiWindowAddress.showPageAction,
                case .variant(.array(_, let parameters)) = arguments[1],
                case .variant(.string(let page))? = parameters.first
            else { return "?\(action)" }
            return page
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        _ = LoopWait.until(timeout: 5) { !self.bus.nameHasOwner(RelavoiWindowAddress.applicationID) }
    }
}
