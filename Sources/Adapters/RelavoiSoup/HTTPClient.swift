import CGLib
import CSoup

/// A small async HTTP client over a `SoupClientSession`. Requests run on
/// the GLib main loop; the awaiting task resumes on the main actor.
/// Cancelling the task cancels the request.
@MainActor
public final class HTTPClient {
    public let session: SoupClientSession
    /// Bodies larger than this fail the request instead of being buffered.
    public var maxBodySize: Int

    public init(session: SoupClientSession, maxBodySize: Int = 8 << 20) {
        self.session = session
        self.maxBodySize = maxBodySize
    }

    public func get(_ url: String, headers: [(String, String)] = []) async throws -> HTTPResponse {
        try await send(method: "GET", url: url, headers: headers)
    }

    /// POSTs `body` as `application/json`.
    public func postJSON(_ url: String, body: [UInt8], headers: [(String, String)] = []) async throws
        -> HTTPResponse
    {
        try await send(
            method: "POST", url: url, headers: headers, body: body, contentType: "application/json")
    }

    /// Throws `SoupError` for transport failures (DNS, TCP, TLS, timeout,
    /// oversized body, cancellation); any HTTP status is a response.
    public func send(
        method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        contentType: String? = nil
    ) async throws -> HTTPResponse {
        guard let message = soup_message_new(method, url) else {
            throw SoupError(message: "invalid URL")
        }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers { soup_message_headers_append(requestHeaders, name, value) }
        if let body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, contentType, bytes)
            g_bytes_unref(bytes)
        }
        let cancellable = Cancellable()
        let operation = HTTPOperation(
            session: session, message: message, cancellable: cancellable, maxBodySize: maxBodySize)
        g_object_unref(UnsafeMutableRawPointer(message))  // the operation holds its own reference
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPResponse, Error>) in
                operation.start { continuation.resume(with: $0) }
            }
        } onCancel: {
            cancellable.cancel()
        }
    }
}

/// Send, then read the body in chunks up to a limit; keeps itself alive
/// through the pending callbacks.
@MainActor
private final class HTTPOperation {
    private let session: SoupClientSession
    private let message: OpaquePointer
    private let cancellable: Cancellable
    private let maxBodySize: Int
    private static let readSize: gsize = 8 * 1024
    private var stream: UnsafeMutablePointer<GInputStream>?
    private var body: [UInt8] = []
    private var completion: ((Result<HTTPResponse, Error>) -> Void)?

    init(
        session: SoupClientSession, message: OpaquePointer, cancellable: Cancellable, maxBodySize: Int
    ) {
        self.session = session
        self.message = message
        g_object_ref(UnsafeMutableRawPointer(message))
        self.cancellable = cancellable
        self.maxBodySize = maxBodySize
    }

    isolated deinit {
        if let stream { g_object_unref(stream) }
        g_object_unref(UnsafeMutableRawPointer(message))
    }

    func start(_ completion: @escaping (Result<HTTPResponse, Error>) -> Void) {
        self.completion = completion
        let (callback, data) = AsyncReadyBox.make { result in
            var error: UnsafeMutablePointer<GError>?
            let stream = soup_session_send_finish(self.session.session, result, &error)
            guard let stream else { return self.finish(.failure(SoupError(taking: error))) }
            self.stream = stream
            self.readChunk()
        }
        soup_session_send_async(
            session.session, message, G_PRIORITY_DEFAULT, cancellable.pointer, callback, data)
    }

    private func readChunk() {
        guard let stream else { return }
        let (callback, data) = AsyncReadyBox.make { result in
            var error: UnsafeMutablePointer<GError>?
            guard let bytes = g_input_stream_read_bytes_finish(stream, result, &error) else {
                return self.finish(.failure(SoupError(taking: error)))
            }
            defer { g_bytes_unref(bytes) }
            var size = 0
            let pointer = g_bytes_get_data(bytes, &size)
            if size == 0 { return self.finish(.success(self.response())) }
            guard self.body.count + size <= self.maxBodySize else {
                self.cancellable.cancel()
                return self.finish(
                    .failure(SoupError(message: "response body larger than \(self.maxBodySize) bytes")))
            }
            if let pointer {
                self.body.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: size))
            }
            self.readChunk()
        }
        // GIO allocates each read's whole size, then shrinks it to what came.
        // A session's details fit in a few KiB; 64 KiB reads needed a free
        // block that large twice per call (the data, then the end).
        g_input_stream_read_bytes_async(
            stream, Self.readSize, G_PRIORITY_DEFAULT, cancellable.pointer, callback, data)
    }

    private func response() -> HTTPResponse {
        final class Collector { var headers: [String: String] = [:] }
        let collector = Collector()
        let visit: SoupMessageHeadersForeachFunc = { name, value, data in
            guard let name, let value, let data else { return }
            let collector = Unmanaged<Collector>.fromOpaque(data).takeUnretainedValue()
            let key = String(cString: name).lowercased()
            let text = String(cString: value)
            if let existing = collector.headers[key] {
                collector.headers[key] = existing + ", " + text
            } else {
                collector.headers[key] = text
            }
        }
        withExtendedLifetime(collector) {
            soup_message_headers_foreach(
                soup_message_get_response_headers(message), visit,
                Unmanaged.passUnretained(collector).toOpaque())
        }
        let status = Int(soup_message_get_status(message).rawValue)
        return HTTPResponse(status: status, headers: collector.headers, body: body)
    }

    private func finish(_ result: Result<HTTPResponse, Error>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }
}
