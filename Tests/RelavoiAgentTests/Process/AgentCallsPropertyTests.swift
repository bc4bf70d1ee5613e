import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// The agent's `Calls` property, as a panel (the GNOME extension, the tray
/// item) reads it: ringing, live, ended and dismissed; `PropertiesChanged`
/// once per change and never for a tick.
final class AgentCallsPropertyTests: XCTestCase {
    func testCallsFollowTheCallAndChangeOnlyWhenTheCallDoes() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(config: "dismiss-policy = after:120")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            let client = try BusTestClient(destination: AgentBus.name)
            client.subscribe(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
            @MainActor func callsSignals() -> [String] { client.signals.map(\.body).filter { $0.contains("'Calls'") } }
            @MainActor func waitForCalls(_ what: String, _ matches: @escaping (String) -> Bool) -> String? {
                var found: String?
                let ok = LoopWait.until(timeout: 15) {
                    found = callsSignals().last
                    return found.map(matches) ?? false
                }
                let log = ok ? "" : String(h.agent.log.suffix(2000))
                XCTAssertTrue(ok, "\(what): \(callsSignals())\n\(log)")
                return found
            }

            h.session("ses_p", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_p", ["proxyNumber": .string("+2348000000001")])
            let ringing = waitForCalls("ringing") {
                $0.contains("'phase': <'ringing'>") && $0.contains("'badge': <'verified'>")
            }
            XCTAssertTrue(ringing?.contains("'label': <'Chowdeck rider'>") == true, ringing ?? "")
            XCTAssertTrue(ringing?.contains("'proxy-number': <'+234 800 000 0001'>") == true, ringing ?? "")
            XCTAssertFalse(ringing?.contains("'rang-at': <int64 0>") ?? true, "the ring time is given")
            // The lock screen, by default: a card with the label and the number's last digits only.
            XCTAssertTrue(ringing?.contains("'lock-screen': <true>") == true, ringing ?? "")
            XCTAssertTrue(ringing?.contains("'lock-label': <'Chowdeck rider'>") == true, ringing ?? "")
            XCTAssertTrue(ringing?.contains("'lock-number': <'•••• 0001'>") == true, ringing ?? "")

            h.send("call.answered", "ses_p")
            let live = waitForCalls("live") { $0.contains("'phase': <'live'>") }
            XCTAssertFalse(
                live?.contains("'answered-at': <int64 0>") ?? true, "the answer time is given: \(live ?? "")")
            XCTAssertTrue(live?.contains("'badge-text': <'Verified'>") == true, live ?? "")
            // Ticks: the banner's timer advances, the property does not change.
            // A loaded machine may skip a second: wait for "at least", not for one exact text.
            func tickedTo(_ seconds: Int) -> (MockNotificationServer.NotifyCall) -> Bool {
                { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= seconds }
            }
            h.waitForNotify(timeout: 15, tickedTo(2))
            let beforeTicks = callsSignals().count
            h.waitForNotify(timeout: 15, tickedTo(4))
            XCTAssertEqual(callsSignals().count, beforeTicks, "no PropertiesChanged for a tick: \(callsSignals())")

            let read = client.agentCalls()
            XCTAssertTrue(read.contains("'session-id': <'ses_p'>") && read.contains("'phase': <'live'>"), read)

            h.send("call.ended", "ses_p", ["durationSeconds": .int(42)])
            let ended = waitForCalls("ended") { $0.contains("'phase': <'ended'>") }
            XCTAssertTrue(ended?.contains("'duration': <int64 42>") == true, ended ?? "")
            XCTAssertFalse(ended?.contains("'ended-at': <int64 0>") ?? true, ended ?? "")

            client.subscribe(interface: AgentBus.interface, member: "BannerDismissed")
            let dismissed = client.call("Dismiss", Args.tuple([Args.s("ses_p")]))
            XCTAssertFalse(dismissed.isError, dismissed.errorMessage ?? "")
            _ = waitForCalls("dismissed") { $0.contains("{'Calls': <@aa{sv} []>}") }
            XCTAssertTrue(LoopWait.until(timeout: 10) { h.mock.closeCalls().count == 1 }, "the banner closed")
            XCTAssertTrue(client.signals.contains { $0.member == "BannerDismissed" && $0.body == "('ses_p',)" })
            let unknown = client.call("Dismiss", Args.tuple([Args.s("ses_nobody")]))
            XCTAssertEqual(unknown.errorName, AgentBus.errorUnknownSession)

            // One signal per change: no two in a row say the same.
            let bodies = callsSignals()
            XCTAssertGreaterThanOrEqual(bodies.count, 4, "\(bodies)")
            XCTAssertLessThanOrEqual(bodies.count, 8, "\(bodies)")
            for (previous, next) in zip(bodies, bodies.dropFirst()) { XCTAssertNotEqual(previous, next) }
            print("Calls PropertiesChanged over the call: \(bodies.count)")
        }
    }

    /// `lock-screen` decides what the lock screen may show, in the entries themselves.
    func testTheLockScreenSettingDecidesTheEntriesLockKeys() throws {
        try MainActor.assumeIsolated {
            for (setting, expected) in [
                ("number", "'lock-screen': <true>, 'lock-label': <'Rider'>, 'lock-number': <'+234 800 000 0001'>"),
                ("badge", "'lock-screen': <true>, 'lock-label': <''>, 'lock-number': <''>"),
                ("off", "'lock-screen': <false>, 'lock-label': <''>, 'lock-number': <''>"),
            ] {
                let h = try AgentHarness(config: "lock-screen = \(setting)")
                XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
                let client = try BusTestClient(destination: AgentBus.name)
                h.session("ses_l", proxy: "+2348000000001", label: "Rider")
                h.send("call.incoming", "ses_l", ["proxyNumber": .string("+2348000000001")])
                var read = ""
                let ok = LoopWait.until(timeout: 15) {
                    read = client.agentCalls()
                    return read.contains("'label': <'Rider'>")
                }
                XCTAssertTrue(ok, "no call in Calls: \(read)")
                XCTAssertTrue(read.contains(expected), "lock-screen = \(setting): \(read)")
                h.stop()
            }
        }
    }

    /// agent.conf changed while a call rings (as the window writes it):
    /// the new lock-screen setting reaches `Calls` at once, with the stream
    /// and the banner kept and no second lookup of the secret; a file that
    /// cannot be used changes nothing.
    func testAChangedSettingIsTakenInPlace() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(config: "lock-screen = number")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            let client = try BusTestClient(destination: AgentBus.name)
            client.subscribe(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
            h.session("ses_r", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_r", ["proxyNumber": .string("+2348000000001")])
            @MainActor func calls() -> String { client.agentCalls() }
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { calls().contains("'lock-number': <'+234 800 000 0001'>") }, calls())
            let handshakes = h.sandbox.handshakeCount
            let file = h.agent.configFile

            try "[agent]\nlock-screen = off\n".write(to: file, atomically: true, encoding: .utf8)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) {
                    client.signals.contains { $0.body.contains("'lock-screen': <false>") }
                }, "no Calls change announced:\n\(h.agent.log.suffix(2000))")
            XCTAssertTrue(calls().contains("'lock-screen': <false>, 'lock-label': <''>, 'lock-number': <''>"), calls())
            XCTAssertTrue(h.agent.log.contains("settings changed: taken in place"), h.agent.log)
            XCTAssertEqual(
                h.agent.log.components(separatedBy: "API secret from").count - 1, 1,
                "only a setting changed: the secret in use stays, not looked up again")

            try "[agent]\nlock-screen = maybe\n".write(to: file, atomically: true, encoding: .utf8)
            XCTAssertTrue(h.agent.waitForLog("cannot be used"), h.agent.log)
            XCTAssertTrue(calls().contains("'lock-screen': <false>"), "a bad file changes nothing: \(calls())")

            XCTAssertEqual(h.sandbox.handshakeCount, handshakes, "the stream was kept")
            XCTAssertTrue(h.mock.closeCalls().isEmpty, "the banner was kept")
            XCTAssertTrue(h.agent.process.isRunning)
        }
    }
}
