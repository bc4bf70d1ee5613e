import CGLib
import CSoup
import Foundation
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// A libsoup client for tests, on the same GLib main loop as the server:
/// every call starts an async operation and iterates the loop until it ends.
final class SoupTestClient {
    private let session: UnsafeMutablePointer<SoupSession>

    init() {
        session = soup_session_new()
        // Loopback only: no proxy resolver (which would load GSettings).
        soup_session_set_proxy_resolver(session, nil)
    }

    deinit {
        soup_session_abort(session)
        g_object_unref(session)
    }

    struct Response {
        var status: Int
        var text: String
        var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }
        var headers: [String: String]
    }

    private final class RequestState {
        var done = false
        var body: String?
    }

    /// Sends one request; fails the test and returns status 0 on timeout.
    func request(
        _ method: String, _ url: String, body: String? = nil, bearer: String? = nil, timeout: Double = 10,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Response {
        guard let message = soup_message_new(method, url) else {
            XCTFail("bad URL \(url)", file: file, line: line)
            return Response(status: 0, text: "", headers: [:])
        }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let headers = soup_message_get_request_headers(message)
        if let bearer { soup_message_headers_replace(headers, "Authorization", "Bearer \(bearer)") }
        if let body {
            var text = body
            text.withUTF8 { buffer in
                let bytes = g_bytes_new(buffer.baseAddress, gsize(buffer.count))
                soup_message_set_request_body_from_bytes(message, "application/json", bytes)
                g_bytes_unref(bytes)
            }
        }
        let state = RequestState()
        let callback: GAsyncReadyCallback = { source, result, data in
            let state = Unmanaged<RequestState>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let bytes = soup_session_send_and_read_finish(sessionPointer(source), result, &error)
            if let bytes {
                var size: gsize = 0
                if let pointer = g_bytes_get_data(bytes, &size) {
                    state.body = String(
                        decoding: UnsafeRawBufferPointer(start: pointer, count: Int(size)), as: UTF8.self)
                } else {
                    state.body = ""
                }
                g_bytes_unref(bytes)
            }
            g_clear_error(&error)
            state.done = true
        }
        soup_session_send_and_read_async(
            session, message, G_PRIORITY_DEFAULT, nil, callback, Unmanaged.passRetained(state).toOpaque())
        guard LoopWait.until(timeout: timeout, { state.done }) else {
            XCTFail("\(method) \(url) timed out", file: file, line: line)
            return Response(status: 0, text: "", headers: [:])
        }
        var responseHeaders: [String: String] = [:]
        for name in ["Retry-After", "WWW-Authenticate", "Content-Type", "Allow"] {
            if let value = soup_message_headers_get_one(soup_message_get_response_headers(message), name) {
                responseHeaders[name] = String(cString: value)
            }
        }
        return Response(
            status: Int(soup_message_get_status(message).rawValue), text: state.body ?? "", headers: responseHeaders)
    }

    /// A fresh token from `server`, or nil.
    @MainActor
    func token(from server: SandboxServer) -> String? {
        let body = "{\"apiKey\":\"\(server.options.apiKey)\",\"apiSecret\":\"\(server.options.apiSecret)\"}"
        return request("POST", server.baseURL + "/auth/token", body: body).json?["accessToken"]?.stringValue
    }

    /// Opens a WebSocket; nil (and a test failure unless `expectFailure`) if the upgrade fails.
    func webSocket(_ url: String, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line)
        -> TestWebSocket?
    {
        guard let message = soup_message_new("GET", url) else {
            XCTFail("bad URL \(url)", file: file, line: line)
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let socket = TestWebSocket()
        let callback: GAsyncReadyCallback = { source, result, data in
            let socket = Unmanaged<TestWebSocket>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            if let connection = soup_session_websocket_connect_finish(sessionPointer(source), result, &error) {
                socket.attach(connection)
            } else {
                socket.connectError = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            }
            g_clear_error(&error)
            socket.connectDone = true
        }
        soup_session_websocket_connect_async(
            session, message, nil, nil, G_PRIORITY_DEFAULT, nil, callback, Unmanaged.passRetained(socket).toOpaque())
        guard LoopWait.until(timeout: timeout, { socket.connectDone }), socket.connectError == nil else {
            XCTFail("WebSocket \(url) failed: \(socket.connectError ?? "timeout")", file: file, line: line)
            return nil
        }
        return socket
    }
}

/// The client end of a WebSocket: records text frames and the close.
final class TestWebSocket {
    fileprivate var connectDone = false
    fileprivate var connectError: String?
    private var connection: OpaquePointer?
    private var handlerIDs: [gulong] = []
    private(set) var messages: [String] = []
    private(set) var isClosed = false
    private(set) var closeCode = 0
    private(set) var closeReason = ""

    fileprivate func attach(_ connection: OpaquePointer) {
        self.connection = connection
        let onMessage: @convention(c) (OpaquePointer?, gint, OpaquePointer?, gpointer?) -> Void = { _, _, bytes, data in
            let socket = Unmanaged<TestWebSocket>.fromOpaque(data!).takeUnretainedValue()
            var size: gsize = 0
            guard let bytes, let pointer = g_bytes_get_data(bytes, &size) else { return }
            socket.messages.append(
                String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(size)), as: UTF8.self))
        }
        let onClosed: @convention(c) (OpaquePointer?, gpointer?) -> Void = { connection, data in
            let socket = Unmanaged<TestWebSocket>.fromOpaque(data!).takeUnretainedValue()
            socket.closeCode = Int(soup_websocket_connection_get_close_code(connection))
            socket.closeReason = soup_websocket_connection_get_close_data(connection).map { String(cString: $0) } ?? ""
            socket.isClosed = true
        }
        let destroy: GClosureNotify = { data, _ in Unmanaged<TestWebSocket>.fromOpaque(data!).release() }
        for (signal, callback) in [
            ("message", unsafeBitCast(onMessage, to: GCallback.self)),
            ("closed", unsafeBitCast(onClosed, to: GCallback.self)),
        ] {
            handlerIDs.append(
                g_signal_connect_data(
                    UnsafeMutableRawPointer(connection), signal, callback, Unmanaged.passRetained(self).toOpaque(),
                    destroy, GConnectFlags(0)))
        }
    }

    /// Releases the connection (and breaks the signal handlers' references).
    func dispose() {
        guard let connection else { return }
        self.connection = nil
        for id in handlerIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), id) }
        handlerIDs = []
        if soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN {
            soup_websocket_connection_close(connection, 1000, nil)
        }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    func send(_ text: String) {
        guard let connection, soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else {
            return
        }
        soup_websocket_connection_send_text(connection, text)
    }

    var json: [JSONValue] { messages.compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) } }

    /// Iterates the loop until `count` messages arrived.
    @discardableResult
    func waitForMessages(_ count: Int, timeout: Double = 30) -> Bool {
        LoopWait.until(timeout: timeout) { self.messages.count >= count }
    }

    @discardableResult
    func waitForClose(timeout: Double = 5) -> Bool {
        LoopWait.until(timeout: timeout) { self.isClosed }
    }
}

private func sessionPointer(_ source: UnsafeMutablePointer<GObject>?) -> UnsafeMutablePointer<SoupSession>? {
    source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: SoupSession.self) }
}

/// Runs the loop for `seconds`, whatever happens.
func spin(_ seconds: Double) {
    LoopWait.until(timeout: seconds) { false }
}
