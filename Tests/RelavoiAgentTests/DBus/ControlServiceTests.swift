import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// `com.relavoi.Agent1` on the private test bus, driven by a second
/// connection while the test thread (the main thread) turns the GLib loop.
final class ControlServiceTests: XCTestCase {
    private static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// A registered service with a fake control and a client that addresses it.
    @MainActor
    private struct Fixture {
        let control = FakeBannerControl()
        let service: ControlService
        let client: BusTestClient

        init() throws {
            let bus = try BusConnection.session()
            service = ControlService(connection: bus, control: control, now: { ControlServiceTests.now })
            try service.register()
            client = try BusTestClient(destination: bus.uniqueName)
        }
    }

    func testStartUpdateEndReachTheControl() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            XCTAssertFalse(
                f.client.call("Start", Args.start("call-1", "+234 (800) 000-0001", "Chowdeck rider")).isError)
            XCTAssertFalse(f.client.call("Update", Args.update("call-1", 42, false, "Rider")).isError)
            let closeAt = Int64(Self.now.timeIntervalSince1970) + 5
            XCTAssertFalse(f.client.call("End", Args.end("call-1", "after", closeAt)).isError)
            XCTAssertEqual(
                f.control.calls,
                [
                    .start(
                        sessionId: "call-1", proxyNumber: "+234 (800) 000-0001", label: "Chowdeck rider",
                        verified: true),
                    .update(sessionId: "call-1", elapsedSeconds: 42, verified: false, label: "Rider"),
                    .end(sessionId: "call-1", policy: .after(Date(timeIntervalSince1970: TimeInterval(closeAt)))),
                ])
        }
    }

    func testEndPoliciesImmediateAndDefault() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            _ = f.client.call("Start", Args.start("a"))
            _ = f.client.call("Start", Args.start("b"))
            XCTAssertFalse(f.client.call("End", Args.end("a", "default")).isError)
            XCTAssertFalse(f.client.call("End", Args.end("b", "immediate")).isError)
            XCTAssertEqual(
                f.control.calls.suffix(2),
                [.end(sessionId: "a", policy: .default), .end(sessionId: "b", policy: .immediate)])
        }
    }

    func testListReturnsEveryBanner() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let empty = f.client.call("List", nil)
            XCTAssertNil(empty.errorName)
            XCTAssertEqual(Args.printed(empty.value), "([],)")
            _ = f.client.call("Start", Args.start("call-1", "+2348000000001", "Rider \"Bo\"", true))
            _ = f.client.call("Start", Args.start("call-2", "0800", "", false))
            _ = f.client.call("Update", Args.update("call-2", 61, false, "Shop"))
            _ = f.client.call("End", Args.end("call-2", "default"))
            let list = f.client.call("List", nil)
            XCTAssertNil(list.errorName)
            XCTAssertEqual(
                Args.printed(list.value),
                "([('call-1', '+2348000000001', 'Rider \"Bo\"', true, 0, 'active'), "
                    + "('call-2', '0800', 'Shop', false, 61, 'ended')],)")
        }
    }

    func testDiagnosticsReturnsTheControlsFigures() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            _ = f.client.call("Start", Args.start("call-1"))
            let reply = f.client.call("Diagnostics", nil)
            XCTAssertNil(reply.errorName)
            XCTAssertEqual(Args.printed(reply.value), "({'banners': 1, 'answer': 42},)")
            let value = try reply.value.map { try DBusValue(gvariant: $0) }
            XCTAssertEqual(value.map { AgentDiagnosticsReply.figures($0).map(\.name) }, ["banners", "answer"])
            XCTAssertEqual(
                f.client.call("Diagnostics", Args.start("x")).errorName, "org.freedesktop.DBus.Error.InvalidArgs")
        }
    }

    func testUnknownSessionIsItsOwnError() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let update = f.client.call("Update", Args.update("nobody", 1))
            XCTAssertEqual(update.errorName, AgentBus.errorUnknownSession)
            XCTAssertEqual(update.errorMessage, "no banner for session \"nobody\"")
            XCTAssertEqual(f.client.call("End", Args.end("nobody")).errorName, AgentBus.errorUnknownSession)
        }
    }

    func testControlFailureBecomesFailedError() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            f.control.startFailure = .failed("banners are off")
            let reply = f.client.call("Start", Args.start("call-1"))
            XCTAssertEqual(reply.errorName, AgentBus.errorFailed)
            XCTAssertEqual(reply.errorMessage, "banners are off")
        }
    }

    func testInvalidArgumentsAreRejectedWithTheirName() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            _ = f.client.call("Start", Args.start("ok"))
            let cases: [(String, OpaquePointer, String)] = [
                ("Start", Args.start(""), "session_id is empty"),
                ("Start", Args.start(String(repeating: "a", count: 129)), "session_id is 129 characters"),
                ("Start", Args.start("call 1"), "session_id may hold only"),
                ("Start", Args.start("call/1"), "session_id may hold only"),
                ("Start", Args.start("caf\u{e9}"), "session_id may hold only"),
                ("Start", Args.start("ok", ""), "proxy_number has no digit"),
                ("Start", Args.start("ok", "+1 555 CALL"), "proxy_number may hold only"),
                ("Start", Args.start("ok", String(repeating: "1", count: 33)), "proxy_number is 33 characters"),
                (
                    "Start", Args.start("ok", "1", String(repeating: "\u{e9}", count: 513)),
                    "other_party_label is 1026 bytes"
                ),
                ("Update", Args.update("ok", -1), "elapsed_seconds is negative"),
                ("Update", Args.update("ok", 8 * 3600 + 1), "elapsed_seconds is 28801"),
                ("Update", Args.update("bad id", 1), "session_id may hold only"),
                ("End", Args.end("ok", "later"), "policy \"later\" is unknown"),
                ("End", Args.end("ok", "\u{1b}[31m"), "policy is unknown"),
                ("End", Args.end("ok", "immediate", 5), "after_unix_seconds must be 0"),
                ("End", Args.end("ok", "after", -1), "after_unix_seconds -1 is out of range"),
                ("End", Args.end("ok", "after", Int64(Self.now.timeIntervalSince1970) + 5 * 3600), "is out of range"),
                ("End", Args.end("ok", "after", Int64.max), "is out of range"),
            ]
            for (method, args, expected) in cases {
                let reply = f.client.call(method, args)
                XCTAssertEqual(reply.errorName, AgentBus.errorInvalidArgument, "\(method) \(expected)")
                XCTAssertTrue(
                    reply.errorMessage?.contains(expected) == true,
                    "\(method): \(reply.errorMessage ?? "no error") lacks \(expected)")
            }
            // Nothing reached the control but the first Start; the label limit is bytes, not characters.
            XCTAssertEqual(f.control.calls.count, 1)
            XCTAssertFalse(
                f.client.call("Start", Args.start("ok", "1", String(repeating: "\u{e9}", count: 512))).isError)
            XCTAssertFalse(f.client.call("Update", Args.update("ok", 8 * 3600)).isError)
        }
    }

    func testWrongSignatureAndUnknownMembersAreRejectedByGDBus() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let short = f.client.call("Start", Args.tuple([Args.s("a"), Args.s("1")]))
            XCTAssertEqual(short.errorName, "org.freedesktop.DBus.Error.InvalidArgs")
            let typed = f.client.call("Update", Args.tuple([Args.s("a"), Args.x(1), Args.b(true), Args.s("")]))
            XCTAssertEqual(typed.errorName, "org.freedesktop.DBus.Error.InvalidArgs")
            XCTAssertEqual(f.client.call("Explode", nil).errorName, "org.freedesktop.DBus.Error.UnknownMethod")
            let set = f.client.call(
                "Set",
                Args.tuple([Args.s(AgentBus.interface), Args.s("Connected"), g_variant_new_variant(Args.b(true))]),
                interface: "org.freedesktop.DBus.Properties")
            XCTAssertNotNil(set.errorName)
            XCTAssertTrue(f.control.calls.isEmpty)
        }
    }

    func testNoInputCrashesTheService() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            var generator = SplitMix64(seed: 4)
            let alphabet = Array("aZ09._:-+ ()/\\\"'\u{0}\u{1}\u{7f}\u{e9}\u{1F600}\u{202E}\n\t%s%n")
            func text() -> String {
                let count = Int(generator.next() % 140)
                return String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            }
            for _ in 0..<60 {
                let int = Int32(truncatingIfNeeded: generator.next())
                let long = Int64(bitPattern: generator.next())
                for reply in [
                    f.client.call("Start", Args.start(text(), text(), text(), generator.next() % 2 == 0)),
                    f.client.call("Update", Args.update(text(), int, true, text())),
                    f.client.call(
                        "End", Args.end(text(), ["after", "default", "immediate", text()].randomElement()!, long)),
                ] where reply.isError {
                    XCTAssertTrue(
                        [AgentBus.errorInvalidArgument, AgentBus.errorUnknownSession].contains(reply.errorName),
                        reply.errorName ?? "")
                }
            }
            XCTAssertNil(f.client.call("List", nil).errorName)
        }
    }

    func testIntrospectionDescribesTheInterface() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let reply = f.client.call("Introspect", nil, interface: "org.freedesktop.DBus.Introspectable")
            let xml = Args.printed(reply.value)
            for part in [
                "com.relavoi.Agent1", "name=\"Start\"", "a(sssbis)", "a{sx}", "BannerDismissed", "Connected", "Health",
            ] {
                XCTAssertTrue(xml.contains(part), part)
            }
        }
    }

    func testConnectedPropertyAndPropertiesChanged() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let get = Args.tuple([Args.s(AgentBus.interface), Args.s("Connected")])
            XCTAssertEqual(
                Args.printed(f.client.call("Get", get, interface: "org.freedesktop.DBus.Properties").value),
                "(<false>,)")
            f.client.subscribe(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
            f.service.connectedChanged()  // unchanged: no signal
            f.control.isStreamConnected = true
            f.service.connectedChanged()
            f.service.connectedChanged()  // unchanged again
            f.control.isStreamConnected = false
            f.service.connectedChanged()
            let signals = f.client.waitForSignals(2)
            // The reply to a later call comes after every signal sent before it (one connection, in order).
            let all = f.client.call(
                "GetAll", Args.tuple([Args.s(AgentBus.interface)]), interface: "org.freedesktop.DBus.Properties")
            XCTAssertEqual(f.client.signals.count, 2)
            XCTAssertEqual(
                signals.map(\.body),
                [
                    "('com.relavoi.Agent1', {'Connected': <true>}, @as [])",
                    "('com.relavoi.Agent1', {'Connected': <false>}, @as [])",
                ])
            XCTAssertEqual(
                Args.printed(all.value),
                "({'Connected': <false>, 'Calls': <@aa{sv} []>, "
                    + "'Health': <{'state': <'connected'>, 'since': <int64 0>}>},)")
        }
    }

    /// The health machine's states reach panels as `Health`, announced once each.
    func testHealthPropertyAndPropertiesChanged() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let get = Args.tuple([Args.s(AgentBus.interface), Args.s("Health")])
            XCTAssertEqual(
                Args.printed(f.client.call("Get", get, interface: "org.freedesktop.DBus.Properties").value),
                "(<{'state': <'connected'>, 'since': <int64 0>}>,)")
            f.client.subscribe(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
            let lost = Date(timeIntervalSince1970: 1_750_000_000.25)
            f.service.healthChanged(.offline(since: lost))
            f.service.healthChanged(.offline(since: lost))  // unchanged: no signal
            f.service.healthChanged(.notSetUp)
            let signals = f.client.waitForSignals(2)
            XCTAssertEqual(
                signals.map(\.body),
                [
                    "('com.relavoi.Agent1', {'Health': <{'state': <'offline'>, 'since': <int64 1750000000250>}>}, @as [])",
                    "('com.relavoi.Agent1', {'Health': <{'state': <'not-set-up'>, 'since': <int64 0>}>}, @as [])",
                ])
            XCTAssertEqual(f.client.signals.count, 2)
        }
    }

    func testBannerDismissedReachesASubscriber() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            f.client.subscribe(interface: AgentBus.interface, member: "BannerDismissed")
            f.service.emitBannerDismissed(sessionId: "call-7")
            let signals = f.client.waitForSignals(1)
            XCTAssertEqual(
                signals, [.init(interface: AgentBus.interface, member: "BannerDismissed", body: "('call-7',)")])
        }
    }

    func testUnregisteredServiceIsGoneAndCanRegisterAgain() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            f.service.unregister()
            XCTAssertEqual(f.client.call("List", nil).errorName, "org.freedesktop.DBus.Error.UnknownMethod")
            try f.service.register()
            XCTAssertNil(f.client.call("List", nil).errorName)
        }
    }

    func testSecondServiceOnTheSamePathFailsToRegister() throws {
        try MainActor.assumeIsolated {
            let f = try Fixture()
            let other = ControlService(connection: try BusConnection.session(), control: f.control)
            XCTAssertThrowsError(try other.register())
            XCTAssertTrue(f.service.isRegistered)
        }
    }
}
