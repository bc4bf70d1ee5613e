import CGLib
import Foundation
import RelavoiDBus
import RelavoiGLib
import RelavoiTestSupport
import XCTest

@testable import RelavoiAgentKit
@testable import RelavoiDesktop

/// The GIO adapters in-process: signals in, callbacks out.
final class DesktopWatchTests: XCTestCase {
    /// `network-changed` and `notify::network-available` both report, with
    /// the monitor's availability; nothing after `stop()`.
    func testNetworkWatchReportsBothSignals() throws {
        try MainActor.assumeIsolated { try Self.networkWatcherReportsBothSignals() }
    }

    @MainActor
    private static func networkWatcherReportsBothSignals() throws {
        let monitor = try XCTUnwrap(g_network_monitor_get_default())
        var ready: [Bool] = []
        var changes: [Bool] = []
        let watcher = NetworkWatch(onReady: { ready.append($0) }, onChange: { changes.append($0) })
        watcher.attach(monitor)
        let available = g_network_monitor_get_network_available(monitor) != 0
        XCTAssertEqual(ready, [available])

        Self.emitNetworkChanged(monitor, available: true)
        XCTAssertEqual(changes, [available], "network-changed reports the monitor's own availability")
        g_object_notify(UnsafeMutablePointer<GObject>(monitor), "network-available")
        XCTAssertEqual(changes, [available, available], "notify::network-available (NetworkManager's monitor)")

        watcher.stop()
        Self.emitNetworkChanged(monitor, available: false)
        g_object_notify(UnsafeMutablePointer<GObject>(monitor), "network-available")
        XCTAssertEqual(changes.count, 2, "disconnected")
    }

    /// A watcher gone before the default monitor was made never hears of it.
    func testNetworkWatchStartedAndDroppedIsHarmless() throws {
        MainActor.assumeIsolated {
            var calls = 0
            var watcher: NetworkWatch? = NetworkWatch(onReady: { _ in calls += 1 }, onChange: { _ in calls += 1 })
            watcher?.start()
            watcher = nil
            LoopWait.until(timeout: 0.5) { false }
            XCTAssertEqual(calls, 0)
        }
    }

    /// The session bus connection closing reaches `onClosed` once.
    func testSessionBusWatchReportsTheConnectionClosing() throws {
        try MainActor.assumeIsolated { try Self.sessionBusWatcherReportsTheConnectionClosing() }
    }

    @MainActor
    private static func sessionBusWatcherReportsTheConnectionClosing() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run through `make test`")
        }
        let connection = try BusConnection.privateSession()
        var closed = 0
        let watcher = SessionBusWatch(connection: connection) { closed += 1 }
        watcher.start()
        XCTAssertEqual(g_dbus_connection_get_exit_on_close(connection.pointer), 0, "closing must not raise SIGTERM")
        LoopWait.until(timeout: 0.2) { false }
        XCTAssertEqual(closed, 0)
        connection.close()
        XCTAssertTrue(LoopWait.until(timeout: 5) { closed > 0 })
        LoopWait.until(timeout: 0.2) { false }
        XCTAssertEqual(closed, 1)
        watcher.stop()
    }

    /// `g_signal_emit_by_name` is variadic; `g_signal_emitv` takes GValues.
    static func emitNetworkChanged(_ monitor: OpaquePointer, available: Bool) {
        let instanceType = UnsafeMutablePointer<GTypeInstance>(monitor).pointee.g_class.pointee.g_type
        let signal = g_signal_lookup("network-changed", g_network_monitor_get_type())
        var values = [GValue(), GValue()]
        g_value_init(&values[0], instanceType)
        g_value_set_object(&values[0], UnsafeMutableRawPointer(monitor))
        g_value_init(&values[1], GType(5 << 2))  // G_TYPE_BOOLEAN
        g_value_set_boolean(&values[1], available ? 1 : 0)
        g_signal_emitv(values, signal, 0, nil)
        g_value_unset(&values[0])
        g_value_unset(&values[1])
    }
}
