import CGLib
import CSoup

/// A client WebSocket over libsoup-3 on the GLib main loop.
///
/// Life cycle: `open()` starts the handshake; then exactly one of
/// `onOpen` or `onConnectFailed` is called, unless `close()` came first.
/// After `onOpen`, text frames arrive through `onText` (binary frames are
/// ignored) and `onClosed` is called once when the socket is gone, whoever
/// closed it. An open connection keeps itself alive until it is closed, so
/// dropping the last reference never leaks a socket half-way: call
/// `close()` to end it.
@MainActor
public final class WebSocketConnection {
    public struct Options: Sendable {
        /// Larger incoming frames make libsoup close the connection (1009)
        /// before buffering them; larger reassembled messages are refused here.
        public var maxIncomingPayloadSize: Int = 1 << 20
        /// libsoup protocol-level ping interval in seconds (0: off).
        public var keepAliveInterval: UInt32 = 0
        public var origin: String?
        public var headers: [(String, String)] = []

        public init() {}
    }

    public enum State: Equatable, Sendable {
        case idle, connecting, open, closing, closed
    }

    /// Why a handshake failed: the error and the HTTP status if the server answered.
    public struct ConnectFailure: Error, Sendable, CustomStringConvertible {
        public let error: SoupError
        public let httpStatus: Int?
        public var description: String {
            httpStatus.map { "HTTP \($0): \(error.message)" } ?? error.message
        }
    }

    public var onOpen: (@MainActor () -> Void)?
    public var onConnectFailed: (@MainActor (ConnectFailure) -> Void)?
    /// The frame's bytes, valid only during the call (no copy is made).
    public var onText: (@MainActor (UnsafeRawBufferPointer) -> Void)?
    /// A protocol-level pong arrived (activity).
    public var onPong: (@MainActor () -> Void)?
    /// libsoup reported an error on the open connection (it closes next).
    public var onError: (@MainActor (SoupError) -> Void)?
    /// The close code: the peer's, 1009 when we refused an oversized frame,
    /// 1006 when the connection ended without a close frame.
    public var onClosed: (@MainActor (_ code: UInt16, _ reason: String?) -> Void)?

    public private(set) var state: State = .idle
    public let options: Options

    private let session: SoupClientSession
    private let url: String
    private var message: OpaquePointer?
    private var connection: OpaquePointer?
    private var cancellable: Cancellable?
    private var handlerIDs: [gulong] = []
    /// Set when we close because of an error of ours (e.g. 1009).
    private var localCloseCode: UInt16?

    public init(session: SoupClientSession, url: String, options: Options = Options()) {
        self.session = session
        self.url = url
        self.options = options
    }

    /// Starts the handshake. The URL's query may carry a token: it is never logged here.
    public func open() {
        guard state == .idle else { return }
        guard let message = soup_message_new("GET", url) else {
            state = .closed
            let failure = ConnectFailure(
                error: SoupError(message: "invalid WebSocket URL"), httpStatus: nil)
            // Report asynchronously so callers see the same ordering as a network failure.
            let source = g_idle_source_new()!
            let (callback, data) = idleCallback { self.onConnectFailed?(failure) }
            g_source_set_callback(source, callback, data, releaseIdleBox)
            g_source_attach(source, g_main_context_get_thread_default())
            g_source_unref(source)
            return
        }
        self.message = message
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in options.headers {
            soup_message_headers_append(requestHeaders, name, value)
        }
        state = .connecting
        let cancellable = Cancellable()
        self.cancellable = cancellable
        // The callback's box keeps `self` alive while the handshake is pending.
        let (callback, data) = AsyncReadyBox.make { result in self.handshakeFinished(result) }
        soup_session_websocket_connect_async(
            session.session, message, options.origin, nil, G_PRIORITY_DEFAULT, cancellable.pointer,
            callback, data)
    }

    /// Sends a text frame; false if the connection is not open.
    @discardableResult
    public func send(text: String) -> Bool {
        guard state == .open, let connection else { return false }
        soup_websocket_connection_send_text(connection, text)
        return true
    }

    /// Closes the connection (or abandons the handshake: then no callback
    /// follows). On an open connection `onClosed` follows once the close
    /// handshake ends (libsoup gives up waiting for the peer after a few seconds).
    public func close(code: UInt16 = 1000, reason: String? = nil) {
        switch state {
        case .idle:
            state = .closed
        case .connecting:
            state = .closed
            cancellable?.cancel()
        case .open:
            state = .closing
            if let connection { soup_websocket_connection_close(connection, code, reason) }
        case .closing, .closed:
            break
        }
    }

    // MARK: libsoup callbacks

    private func handshakeFinished(_ result: OpaquePointer?) {
        var error: UnsafeMutablePointer<GError>?
        let connection = soup_session_websocket_connect_finish(session.session, result, &error)
        let status = message.map { Int(soup_message_get_status($0).rawValue) } ?? 0
        releaseMessage()
        cancellable = nil
        guard state == .connecting else {
            // close() came first: drop whatever the handshake produced.
            if let connection {
                soup_websocket_connection_close(connection, 1001, nil)
                g_object_unref(UnsafeMutableRawPointer(connection))
            }
            if error != nil { g_error_free(error) }
            return
        }
        guard let connection else {
            state = .closed
            let failure = ConnectFailure(
                error: SoupError(taking: error), httpStatus: status >= 100 ? status : nil)
            onConnectFailed?(failure)
            return
        }
        self.connection = connection
        state = .open
        // libsoup refuses payloads >= the limit (3.2) or > it (later): +1 keeps exactly-max frames.
        soup_websocket_connection_set_max_incoming_payload_size(
            connection, guint64(options.maxIncomingPayloadSize) + 1)
        soup_websocket_connection_set_keepalive_interval(connection, options.keepAliveInterval)
        connectSignals(connection)
        onOpen?()
    }

    private func connectSignals(_ connection: OpaquePointer) {
        typealias MessageHandler =
            @convention(c) (OpaquePointer?, gint, OpaquePointer?, gpointer?) -> Void
        typealias ErrorHandler =
            @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void
        typealias PongHandler = @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        typealias ClosedHandler = @convention(c) (OpaquePointer?, gpointer?) -> Void

        let onMessage: MessageHandler = { _, type, bytes, data in
            let this = Unmanaged<WebSocketConnection>.fromOpaque(data!).takeUnretainedValue()
            nonisolated(unsafe) let bytes = bytes
            MainActor.assumeIsolated { this.received(type: type, bytes: bytes) }
        }
        let onError: ErrorHandler = { _, error, data in
            let this = Unmanaged<WebSocketConnection>.fromOpaque(data!).takeUnretainedValue()
            guard let error else { return }
            let copy = g_error_copy(error)
            MainActor.assumeIsolated { this.failed(SoupError(taking: copy)) }
        }
        let onPong: PongHandler = { _, _, data in
            let this = Unmanaged<WebSocketConnection>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { this.onPong?() }
        }
        let onClosed: ClosedHandler = { _, data in
            let this = Unmanaged<WebSocketConnection>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { this.closed() }
        }
        let release: GClosureNotify = { data, _ in
            Unmanaged<WebSocketConnection>.fromOpaque(data!).release()
        }
        func connect(_ signal: String, _ handler: GCallback) {
            // Each handler owns one reference to self, released when it is disconnected.
            let data = Unmanaged.passRetained(self).toOpaque()
            let id = g_signal_connect_data(
                UnsafeMutableRawPointer(connection), signal, handler, data, release, GConnectFlags(0))
            handlerIDs.append(id)
        }
        connect("message", unsafeBitCast(onMessage, to: GCallback.self))
        connect("error", unsafeBitCast(onError, to: GCallback.self))
        connect("pong", unsafeBitCast(onPong, to: GCallback.self))
        connect("closed", unsafeBitCast(onClosed, to: GCallback.self))
    }

    private func received(type: gint, bytes: OpaquePointer?) {
        guard state == .open, let bytes else { return }
        guard type == gint(SOUP_WEBSOCKET_DATA_TEXT.rawValue) else { return }  // binary: ignored
        var size = 0
        let pointer = g_bytes_get_data(bytes, &size)
        if size > options.maxIncomingPayloadSize {
            // A fragmented message that libsoup reassembled past the limit.
            localCloseCode = 1009
            onError?(
                SoupError(
                    message: "incoming message of \(size) bytes exceeds \(options.maxIncomingPayloadSize)"))
            close(code: 1009, reason: "message too big")
            return
        }
        onText?(UnsafeRawBufferPointer(start: pointer, count: size))
    }

    private func failed(_ error: SoupError) {
        // libsoup reports an oversized frame as a WebSocket error with code 1009.
        if error.domain == "soup-websocket-error-quark", error.code == 1009 { localCloseCode = 1009 }
        onError?(error)
    }

    private func closed() {
        guard let connection else { return }
        let peerCode = soup_websocket_connection_get_close_code(connection)
        let reason = soup_websocket_connection_get_close_data(connection).map { String(cString: $0) }
        state = .closed
        self.connection = nil
        // Disconnecting releases the handlers' references to self; keep it
        // alive until this call returns.
        withExtendedLifetime(self) {
            for id in handlerIDs { g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), id) }
            handlerIDs.removeAll()
            g_object_unref(UnsafeMutableRawPointer(connection))
            let code = localCloseCode ?? (peerCode != 0 ? peerCode : 1006)
            onClosed?(code, reason.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    private func releaseMessage() {
        if let message { g_object_unref(UnsafeMutableRawPointer(message)) }
        message = nil
    }
}

/// A one-shot idle callback (for reporting errors on a later loop turn).
private final class IdleBox: Sendable {
    let body: @MainActor () -> Void
    init(_ body: @escaping @MainActor () -> Void) { self.body = body }
}

private func idleCallback(_ body: @escaping @MainActor () -> Void) -> (GSourceFunc, gpointer) {
    let data = Unmanaged.passRetained(IdleBox(body)).toOpaque()
    let callback: GSourceFunc = { data in
        let box = Unmanaged<IdleBox>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { box.body() }
        return gboolean(0)
    }
    return (callback, data)
}

private let releaseIdleBox: GDestroyNotify = { data in
    Unmanaged<IdleBox>.fromOpaque(data!).release()
}
