import CGLib
import RelavoiGLib
import RelavoiTestSupport
import XCTest

@testable import RelavoiNotify

/// The late answer to a `Notify` that timed out reaches whoever awaits it,
/// however many other `Notify` calls went out while the server hung (a banner
/// shown again meanwhile): else the notification it made would stay.
final class LateNotifyAnswersTests: XCTestCase {
    func testAnAwaitedAnswerIsHeardAfterManyOtherCalls() throws {
        let mock = try MockNotificationServer.start()
        defer {
            mock.resume()
            mock.stop()
        }
        let heard = Box<[(serial: UInt32, id: UInt32?)]>([])
        let answers = try XCTUnwrap(
            LateNotifyAnswers(context: g_main_context_default()) { serial, id in
                heard.update { $0.append((serial, id)) }
            })
        defer { answers.close() }
        let bus = try XCTUnwrap(g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil))
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        mock.pause()

        // As libnotify's show, a synchronous Notify that times out (here after 2 s, not 25).
        let first = Self.notifyParameters("first")
        defer { g_variant_unref(first) }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, NotificationsBus.name, NotificationsBus.path, NotificationsBus.interface, "Notify", first, nil,
            G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
        XCTAssertNil(reply)
        XCTAssertEqual(error?.pointee.code, gint(G_IO_ERROR_TIMED_OUT.rawValue))
        if let error { g_error_free(error) }
        let serial = try XCTUnwrap(answers.awaitLastCall(), "the Notify was heard going out")

        // More calls than are kept, none awaited, all waiting for the server.
        for index in 0..<40 {
            let parameters = Self.notifyParameters("other \(index)")
            defer { g_variant_unref(parameters) }
            let message = g_dbus_message_new_method_call(
                NotificationsBus.name, NotificationsBus.path, NotificationsBus.interface, "Notify")!
            defer { g_object_unref(UnsafeMutableRawPointer(message)) }
            g_dbus_message_set_body(message, parameters)
            XCTAssertNotEqual(g_dbus_connection_send_message(bus, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, nil, nil), 0)
        }
        mock.resume()
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { heard.value.contains { $0.serial == serial } },
            "the awaited answer never came: \(mock.notifyCalls().count) Notify calls reached the server")
        XCTAssertTrue(LoopWait.until(timeout: 30) { mock.notifyCalls().count == 41 })
        XCTAssertEqual(heard.value.map(\.serial), [serial], "only the awaited answer is handed on")
        XCTAssertNotNil(heard.value.first?.id, "with the notification's id")
    }

    /// `Notify`'s parameters (a new reference: unref it).
    private static func notifyParameters(_ summary: String) -> OpaquePointer {
        g_variant_parse(nil, "('relavoi-test', uint32 0, '', '\(summary)', '', @as [], @a{sv} {}, -1)", nil, nil, nil)!
    }
}
