import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
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

    struct NameNotAcquired: Error, CustomStringConvertible {
        let name: String
        var description: String { "the first acquire did not get \(name)" }
    }

    /// The test's own name owned on the first of two private connections, and
    /// the losses that ownership hears of.
    @MainActor final class FirstOwner {
        @MainActor final class Losses { var reasons: [AgentBusName.LossReason] = [] }
        let first: BusConnection
        let second: BusConnection
        let name: String
        let owner: AgentBusName
        private let losses: Losses
        var lost: [AgentBusName.LossReason] { losses.reasons }

        init(test function: String) throws {
            (first, second) = try AgentBusNameTests.connections()
            name = AgentBusNameTests.testName(function)
            let losses = Losses()
            guard
                case .acquired(let owner) = AgentBusName.acquire(
                    on: first, name: name, onLost: { losses.reasons.append($0) })
            else { throw NameNotAcquired(name: name) }
            self.owner = owner
            self.losses = losses
        }
    }

    func testSecondAcquireOnTheSameBusIsAlreadyRunning() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let owned = try FirstOwner(test: function)
            XCTAssertTrue(owned.owner.isOwned)
            guard case .alreadyRunning = AgentBusName.acquire(on: owned.second, name: owned.name, onLost: { _ in })
            else { return XCTFail("second acquire was not told the agent runs") }
            XCTAssertTrue(owned.owner.isOwned)
            // After the first gives the name back, the next agent gets it.
            owned.owner.release()
            XCTAssertFalse(owned.owner.isOwned)
            guard case .acquired(let next) = AgentBusName.acquire(on: owned.second, name: owned.name, onLost: { _ in })
            else { return XCTFail("the name was not free after release") }
            next.release()
            XCTAssertEqual(owned.lost, [], "release does not report a loss")
        }
    }

    func testReplacingAgentTakesTheNameAndTheOldOneHearsIt() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let owned = try FirstOwner(test: function)
            guard
                case .acquired(let replacement) = AgentBusName.acquire(
                    on: owned.second, name: owned.name, replace: true, onLost: { _ in })
            else { return XCTFail("replace did not take the name") }
            XCTAssertTrue(LoopWait.until(timeout: 30) { !owned.lost.isEmpty })
            XCTAssertEqual(owned.lost, [.replaced])
            XCTAssertFalse(owned.owner.isOwned)
            XCTAssertTrue(replacement.isOwned)
            replacement.release()
        }
    }

    func testClosedBusIsReportedOnce() throws {
        let function = #function
        try MainActor.assumeIsolated {
            let owned = try FirstOwner(test: function)
            owned.first.close()
            XCTAssertTrue(LoopWait.until(timeout: 30) { !owned.lost.isEmpty })
            // A second report would come in the same turns as the first: no later event marks them done.
            LoopWait.until(timeout: 0.2) { false }
            XCTAssertEqual(owned.lost, [.busClosed])
            XCTAssertFalse(owned.owner.isOwned)
            guard case .noBus = AgentBusName.acquire(on: owned.first, name: owned.name, onLost: { _ in }) else {
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
