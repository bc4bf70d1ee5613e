import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// `ExportedObject`, `BusConnection.callAsync`, `BusNameOwner`, `BusNameWatch` and
/// `BusSignalSubscription` on the private test bus: the object is served by this
/// thread's loop, the calls come from a second connection.
final class ExportedObjectTests: XCTestCase {
    private static let xml = """
        <node>
          <interface name="com.relavoi.Test1">
            <method name="Echo"><arg name="v" type="v" direction="in"/><arg name="v" type="v" direction="out"/></method>
            <method name="Ignore"/>
            <property name="Path" type="o" access="read"/>
            <property name="Good" type="s" access="read"/>
            <property name="Missing" type="s" access="read"/>
          </interface>
        </node>
        """

    /// The object's connection and the caller's, closed when the test ends.
    @MainActor
    private struct Fixture {
        let server: BusConnection
        let client: BusConnection
    }

    /// Runs `body` on the main actor with two fresh connections to the test bus.
    private static func withBus(_ body: @MainActor (Fixture) throws -> Void) throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test` (dbus-run-session)")
        }
        try MainActor.assumeIsolated {
            let bus = Fixture(server: try BusConnection.privateSession(), client: try BusConnection.privateSession())
            defer {
                bus.server.close()
                bus.client.close()
            }
            try body(bus)
        }
    }

    /// What the object's `Path` property says (it may be invalid).
    private final class PathBox {
        var path = "/ok"
    }

    /// An object whose `Path` property is `path` (an invalid one cannot be sent).
    @MainActor
    private static func exported(_ bus: Fixture, path: PathBox = PathBox()) throws -> ExportedObject {
        let object = ExportedObject(
            connection: bus.server, path: "/com/relavoi/Test", introspectionXML: Self.xml,
            onCall: { call in
                switch call.method {
                case "Echo": call.reply(call.arguments)
                default: break  // left unanswered: the call answers Failed when it goes
                }
            },
            property: { name in
                switch name {
                case "Path": return .objectPath(path.path)
                case "Good": return .string("fine")
                default: return nil
                }
            })
        try object.register()
        return object
    }

    @MainActor
    private static func call(
        _ bus: Fixture, _ method: String, _ arguments: [DBusValue] = [], interface: String = "com.relavoi.Test1"
    ) -> Result<DBusValue, DBusCallError>? {
        var outcome: Result<DBusValue, DBusCallError>?
        bus.client.callAsync(
            destination: bus.server.uniqueName, path: "/com/relavoi/Test", interface: interface, method: method,
            arguments: arguments, autoStart: false, timeoutMilliseconds: 30_000
        ) { outcome = $0 }
        XCTAssertTrue(LoopWait.until(timeout: 40) { outcome != nil }, "no reply to \(method)")
        return outcome
    }

    @MainActor
    private static func property(_ bus: Fixture, _ name: String) -> Result<DBusValue, DBusCallError>? {
        call(bus, "Get", [.string("com.relavoi.Test1"), .string(name)], interface: "org.freedesktop.DBus.Properties")
    }

    func testAValueCrossesTheBusUnchanged() throws {
        try Self.withBus { bus in
            let object = try Self.exported(bus)
            let value = DBusValue.variant(
                .tuple([
                    .dictionary([("label", .string("Rider")), ("at", .int64(-1))]),
                    .array(elementSignature: "(iiay)", []),
                    .objectPath("/a/b"), .uint32(7), .double(0.25), .byte(9), .bool(false), .uint64(.max),
                ]))
            XCTAssertEqual(try Self.call(bus, "Echo", [value])?.get(), .tuple([value]))
            object.unregister()
        }
    }

    func testAnUnansweredCallGetsFailedNotSilence() throws {
        try Self.withBus { bus in
            let object = try Self.exported(bus)
            guard case .failure(let failure)? = Self.call(bus, "Ignore") else { return XCTFail("Ignore was answered") }
            XCTAssertEqual(failure.name, "org.freedesktop.DBus.Error.Failed")
            XCTAssertEqual(failure.message, "Ignore was not answered")
            _ = object
        }
    }

    func testAPropertyThatCannotBeBuiltIsAnErrorAndTheObjectStaysUp() throws {
        try Self.withBus { bus in
            let path = PathBox()
            path.path = "not a path"
            let object = try Self.exported(bus, path: path)
            guard case .failure(let failure)? = Self.property(bus, "Path") else {
                return XCTFail("a bad path was sent")
            }
            XCTAssertEqual(failure.name, "org.freedesktop.DBus.Error.Failed")
            XCTAssertEqual(failure.message, "Path: \"not a path\" is not an object path")
            XCTAssertEqual(try Self.property(bus, "Good")?.get(), .tuple([.variant(.string("fine"))]))
            path.path = "/fixed"
            XCTAssertEqual(try Self.property(bus, "Path")?.get(), .tuple([.variant(.objectPath("/fixed"))]))
            // Not in the XML: GDBus answers itself; in it but without a value: the getter's nil.
            guard case .failure(let undeclared)? = Self.property(bus, "Nope") else { return XCTFail("Nope was read") }
            XCTAssertEqual(undeclared.name, "org.freedesktop.DBus.Error.InvalidArgs")
            guard case .failure(let missing)? = Self.property(bus, "Missing") else {
                return XCTFail("Missing was read")
            }
            XCTAssertEqual(missing.name, "org.freedesktop.DBus.Error.UnknownProperty")
            XCTAssertEqual(missing.message, "no property Missing")
            _ = object
        }
    }

    func testWrongArgumentsAreRefusedByGDBus() throws {
        try Self.withBus { bus in
            let object = try Self.exported(bus)
            guard case .failure(let failure)? = Self.call(bus, "Echo", [.string("not a variant")]) else {
                return XCTFail("Echo(s) was let through")
            }
            XCTAssertEqual(failure.name, "org.freedesktop.DBus.Error.InvalidArgs")
            _ = object
        }
    }

    func testAnArgumentThatCannotBeBuiltFailsTheCallLocally() throws {
        try Self.withBus { bus in
            var outcome: Result<DBusValue, DBusCallError>?
            bus.client.callAsync(
                destination: bus.server.uniqueName, path: "/", interface: "com.relavoi.Test1", method: "Echo",
                arguments: [.array(elementSignature: "s", [.int32(1)])]
            ) { outcome = $0 }
            guard case .failure(let failure)? = outcome else { return XCTFail("the call went out") }
            XCTAssertNil(failure.name)
            XCTAssertEqual(failure.message, "the arguments: array of s holds a i")
        }
    }

    func testTheWatchHearsTheOwnerComeAndGo() throws {
        try Self.withBus { bus in
            let name = "com.relavoi.Test.Watched"
            var owners: [String?] = []
            let watch = BusNameWatch(connection: bus.client, name: name) { owners.append($0) }
            XCTAssertTrue(LoopWait.until(timeout: 10) { owners == [nil] }, "\(owners)")
            guard case .acquired(let owner) = BusNameOwner.acquire(on: bus.server, name: name, onLost: { _ in }) else {
                return XCTFail("the name was not acquired")
            }
            XCTAssertTrue(bus.client.nameHasOwner(name))
            XCTAssertTrue(LoopWait.until(timeout: 10) { owners.count == 2 }, "\(owners)")
            XCTAssertEqual(owners.last, bus.server.uniqueName)
            owner.release()
            XCTAssertTrue(LoopWait.until(timeout: 10) { owners.count == 3 }, "\(owners)")
            XCTAssertEqual(owners.last, String?.none)
            watch.stop()
        }
    }

    func testASubscriptionHearsWhatMatchesUntilCancelled() throws {
        try Self.withBus { bus in
            let object = try Self.exported(bus)
            var heard: [BusSignalSubscription.Signal] = []
            var names: [String] = []
            let changes = BusSignalSubscription(
                connection: bus.client, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                path: "/com/relavoi/Test", arg0: "com.relavoi.Test1"
            ) { heard.append($0) }
            let owners = BusSignalSubscription(
                connection: bus.client, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged", arg0: "com.relavoi.Test", arg0IsNamespace: true
            ) { names.append($0.arguments.first?.stringValue ?? "?") }
            // A round trip after the subscriptions: the bus has their match rules.
            XCTAssertNotNil(Self.call(bus, "Echo", [.variant(.int32(1))]))
            object.emitPropertiesChanged(interface: "com.relavoi.Other1", [("A", .int32(1))])
            object.emitPropertiesChanged(interface: "com.relavoi.Test1", [("Good", .string("finer"))])
            XCTAssertTrue(LoopWait.until(timeout: 10) { !heard.isEmpty }, "no PropertiesChanged")
            XCTAssertEqual(heard.first?.sender, bus.server.uniqueName)
            XCTAssertEqual(heard.first?.member, "PropertiesChanged")
            XCTAssertEqual(heard.first?.arguments.first, .string("com.relavoi.Test1"), "arg0 keeps the other out")
            XCTAssertEqual(heard.first?.arguments.dropFirst().first, .dictionary([("Good", .string("finer"))]))
            guard
                case .acquired(let watched) = BusNameOwner.acquire(
                    on: bus.server, name: "com.relavoi.Test.Player", onLost: { _ in })
            else { return XCTFail("the name was not acquired") }
            guard
                case .acquired(let other) = BusNameOwner.acquire(
                    on: bus.server, name: "com.relavoi.Testing", onLost: { _ in })
            else { return XCTFail("the name was not acquired") }
            XCTAssertTrue(LoopWait.until(timeout: 10) { !names.isEmpty }, "no NameOwnerChanged")
            changes.cancel()
            object.emitPropertiesChanged(interface: "com.relavoi.Test1", [("Good", .string("finest"))])
            watched.release()
            XCTAssertTrue(LoopWait.until(timeout: 10) { names.count == 2 }, "\(names)")
            XCTAssertEqual(names, ["com.relavoi.Test.Player", "com.relavoi.Test.Player"], "in the namespace only")
            XCTAssertEqual(heard.count, 1, "nothing after cancel")
            other.release()
            owners.cancel()
            object.unregister()
        }
    }
}
