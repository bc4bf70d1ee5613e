import CGLib
import CSoup
import Foundation
import RelavoiGLib

/// One accepted WebSocket: owns a reference to the `SoupWebsocketConnection`
/// and its `GSocket`, and the signal handlers that report back to the server.
///
/// Lifetime: the handlers' closure data (`ClientLink`) keeps this object
/// alive until `release()`, which the server schedules when libsoup reports
/// "closed" (or, after `stop()`, a few seconds later at the latest).
@MainActor
final class WebSocketClient {
    enum Phase { case handshaken, live, leaving }

    let id: Int
    private var connection: OpaquePointer?
    private var socket: UnsafeMutablePointer<GSocket>?
    private var handlerIDs: [gulong] = []
    var phase = Phase.handshaken
    var lastPongAt = Date()
    private var releaseTimer: GLibTimer?

    init(id: Int, connection: OpaquePointer, socket: UnsafeMutablePointer<GSocket>?) {
        self.id = id
        self.connection = connection
        self.socket = socket
        g_object_ref(UnsafeMutableRawPointer(connection))
        if let socket { g_object_ref(socket) }
        // Larger client messages than this are a protocol error (libsoup closes with 1009).
        soup_websocket_connection_set_max_incoming_payload_size(connection, 64 * 1024)
    }

    var isOpen: Bool {
        guard let connection else { return false }
        return soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN
    }

    /// Server pings every `seconds` (0 = none).
    func setPingInterval(_ seconds: guint) {
        guard let connection, isOpen else { return }
        soup_websocket_connection_set_keepalive_interval(connection, seconds)
    }

    func send(_ text: String, binary: Bool = false) {
        guard let connection, isOpen else { return }
        var text = text
        text.withUTF8 { buffer in
            let bytes = g_bytes_new(buffer.baseAddress, gsize(buffer.count))
            soup_websocket_connection_send_message(
                connection, binary ? SOUP_WEBSOCKET_DATA_BINARY : SOUP_WEBSOCKET_DATA_TEXT, bytes)
            g_bytes_unref(bytes)
        }
    }

    /// A close frame with `code` (valid per `SandboxServer.isValidCloseCode`).
    func close(code: Int, reason: String) {
        phase = .leaving
        guard let connection, isOpen else { return }
        soup_websocket_connection_close(connection, gushort(code), Self.truncated(reason, bytes: 123))
    }

    /// Abrupt: shut the TCP socket down without a close frame. The peer reads
    /// EOF; libsoup then reports "closed" here.
    func drop() {
        phase = .leaving
        if let socket {
            g_socket_shutdown(socket, 1, 1, nil)
        } else if let connection, let stream = soup_websocket_connection_get_io_stream(connection) {
            g_io_stream_close(stream, nil, nil)
        }
    }

    // MARK: Signals

    private final class ClientLink {
        weak var server: SandboxServer?
        let client: WebSocketClient
        init(server: SandboxServer, client: WebSocketClient) {
            self.server = server
            self.client = client
        }
    }

    func connectSignals(to server: SandboxServer) {
        guard let connection else { return }
        let onMessage: @convention(c) (OpaquePointer?, gint, OpaquePointer?, gpointer?) -> Void = {
            _, type, bytes, data in
            guard let data, let bytes, type == gint(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else { return }
            var size: gsize = 0
            guard let pointer = g_bytes_get_data(bytes, &size) else { return }
            let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(size)), as: UTF8.self)
            let link = Unmanaged<ClientLink>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { link.server?.clientSent(text, from: link.client) }
        }
        let onPong: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            guard let data else { return }
            let link = Unmanaged<ClientLink>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { link.client.lastPongAt = Date() }
        }
        let onClosed: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            guard let data else { return }
            let link = Unmanaged<ClientLink>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated {
                link.server?.clientClosed(link.client)
                link.client.releaseSoon(after: 0)
            }
        }
        let onError: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = {
            _, error, _ in
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            Log.debug("sandbox: websocket error: \(message)")
        }
        connect(connection, "message", unsafeBitCast(onMessage, to: GCallback.self), server)
        connect(connection, "pong", unsafeBitCast(onPong, to: GCallback.self), server)
        connect(connection, "closed", unsafeBitCast(onClosed, to: GCallback.self), server)
        connect(connection, "error", unsafeBitCast(onError, to: GCallback.self), server)
    }

    private func connect(_ connection: OpaquePointer, _ signal: String, _ callback: GCallback, _ server: SandboxServer)
    {
        let link = Unmanaged.passRetained(ClientLink(server: server, client: self)).toOpaque()
        let destroy: GClosureNotify = { data, _ in
            if let data { Unmanaged<ClientLink>.fromOpaque(data).release() }
        }
        let id = g_signal_connect_data(
            UnsafeMutableRawPointer(connection), signal, callback, link, destroy, GConnectFlags(0))
        handlerIDs.append(id)
    }

    // MARK: Release

    /// Releases on a later main-loop turn (never inside libsoup's own emission),
    /// or sooner if already scheduled.
    func releaseSoon(after seconds: Double) {
        if let releaseTimer, releaseTimer.isActive, seconds > 0 { return }
        releaseTimer?.cancel()
        releaseTimer = GLibTimer.once(after: seconds) { [self] in
            MainActor.assumeIsolated { release() }
        }
    }

    /// Disconnects the handlers and drops the references. Idempotent.
    func release() {
        releaseTimer?.cancel()
        releaseTimer = nil
        phase = .leaving
        guard let connection else { return }
        self.connection = nil
        let ids = handlerIDs
        handlerIDs = []
        for id in ids { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), id) }
        g_object_unref(UnsafeMutableRawPointer(connection))
        if let socket {
            self.socket = nil
            g_object_unref(socket)
        }
    }

    static func truncated(_ text: String, bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            if result.utf8.count + String(character).utf8.count > limit { break }
            result.append(character)
        }
        return result
    }
}
