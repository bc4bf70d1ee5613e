import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiDBus
import RelavoiGLib
import XCTest

/// One agent per session: the bus name is owned without queueing.
final class AgentBusNameTests: XCTestCase {
    /// A name of its own per test, so the tests cannot see each other's owners.
    private static func testName(_ function: String = #function) -> String {
        "com.relavoi.Agent.Test.\(function.filter { $0.isLetter || $0.isNumber })"
    }

    private static func connections() throws -> (BusConnection, BusConnection) {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        return (try BusConnection.privateSession(), try BusConnection.privateSession())
    }

    /// The losses an owner heard.
    private final class Losses {
        var reasons: [AgentBusName.LossReason] = []
    }

    private struct NotAcquired: Error {}

    /// `connection` acquires `name` (a failure of the test if it cannot); its losses land in the box.
    @MainActor
    private static func acquire(_ connection: BusConnection, _ name: String) throws -> (AgentBusName, Losses) {
        let losses = Losses()
        guard
            case .acquired(let owner) = AgentBusName.acquire(
                on: connection, name: name, onLost: { losses.reasons.append($0) })
        else {
            XCTFail("the first acquire did not get \(name)")
            throw NotAcquired()
        }
        return (owner, losses)
    }

    func testSecondAcquireOnTheSameBusIsAlreadyRunning() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let (first, second) = try Self.connections()
            let name = Self.testName(function)
            let (owner, lost) = try Self.acquire(first, name)
            XCTAssertTrue(owner.isOwned)
            guard case .alreadyRunning = AgentBusName.acquire(on: second, name: name, onLost: { _ in }) else {
                return XCTFail("second acquire was not told the agent runs")
            }
            XCTAssertTrue(owner.isOwned)
            // After the first gives the name back, the next agent gets it.
            owner.release()
            XCTAssertFalse(owner.isOwned)
            guard case .acquired(let next) = AgentBusName.acquire(on: second, name: name, onLost: { _ in }) else {
                return XCTFail("the name was not free after release")
            }
            next.release()
            XCTAssertEqual(lost.reasons, [], "release does not report a loss")
        }
    }

    func testReplacingAgentTakesTheNameAndTheOldOneHearsIt() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let (first, second) = try Self.connections()
            let name = Self.testName(function)
            let (owner, lost) = try Self.acquire(first, name)
            guard
                case .acquired(let replacement) = AgentBusName.acquire(
                    on: second, name: name, replace: true, onLost: { _ in })
            else { return XCTFail("replace did not take the name") }
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !lost.reasons.isEmpty })
            XCTAssertEqual(lost.reasons, [.replaced])
            XCTAssertFalse(owner.isOwned)
            XCTAssertTrue(replacement.isOwned)
            replacement.release()
        }
    }

    func testClosedBusIsReportedOnce() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let (first, _) = try Self.connections()
            let name = Self.testName(function)
            let (owner, lost) = try Self.acquire(first, name)
            first.close()
            XCTAssertTrue(MainLoop.iterate(timeout: 5) { !lost.reasons.isEmpty })
            MainLoop.iterate(timeout: 0.2) { false }
            XCTAssertEqual(lost.reasons, [.busClosed])
            XCTAssertFalse(owner.isOwned)
            guard case .noBus = AgentBusName.acquire(on: first, name: name, onLost: { _ in }) else {
                return XCTFail("acquire on a closed connection should say there is no bus")
            }
        }
    }

    func testServiceRegisteredBeforeTheNameAnswersCallsToTheName() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let (agentBus, _) = try Self.connections()
            let control = FakeBannerControl()
            let service = ControlService(connection: agentBus, control: control)
            try service.register()
            let name = Self.testName(function)
            guard case .acquired(let owner) = AgentBusName.acquire(on: agentBus, name: name, onLost: { _ in }) else {
                return XCTFail("acquire did not get the name")
            }
            let client = try BusTestClient(destination: name)
            XCTAssertNil(client.call("List", nil).errorName)
            owner.release()
            service.unregister()
        }
    }
}
