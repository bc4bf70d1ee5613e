import CGLib
import CSoup
import Foundation

/// Reading requests out of, and writing responses into, a `SoupServerMessage`.
enum SoupMessage {
    static func request(_ msg: OpaquePointer) -> RESTRequest {
        let method = soup_server_message_get_method(msg).map { String(cString: $0) } ?? "GET"
        let uri = soup_server_message_get_uri(msg)
        let path = uri.flatMap { g_uri_get_path($0) }.map { String(cString: $0) } ?? "/"
        let query = uri.flatMap { g_uri_get_query($0) }.map { QueryString.parse(String(cString: $0)) } ?? [:]
        let headers = soup_server_message_get_request_headers(msg)
        let authorization = soup_message_headers_get_one(headers, "Authorization").map { String(cString: $0) }
        var body = Data()
        if let messageBody = soup_server_message_get_request_body(msg),
            messageBody.pointee.length > 0, messageBody.pointee.length <= SandboxState.maxTokenBody,
            let bytes = soup_message_body_flatten(messageBody)
        {
            var size: gsize = 0
            if let data = g_bytes_get_data(bytes, &size), size > 0 { body = Data(bytes: data, count: Int(size)) }
            g_bytes_unref(bytes)
        }
        return RESTRequest(method: method, path: path, query: query, authorization: authorization, body: body)
    }

    static func respond(_ msg: OpaquePointer, _ response: RESTResponse) {
        soup_server_message_set_status(msg, guint(response.status), nil)
        let headers = soup_server_message_get_response_headers(msg)
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            soup_message_headers_replace(headers, name, value)
        }
        soup_message_headers_replace(headers, "Cache-Control", "no-store")
        var text = JSONText.encode(response.body)
        text.withUTF8 { buffer in
            soup_server_message_set_response(
                msg, "application/json", SOUP_MEMORY_COPY, buffer.baseAddress, gsize(buffer.count))
        }
    }

    /// The request's `token` query parameter (WebSocket handshakes).
    static func queryValue(_ msg: OpaquePointer, _ name: String) -> String? {
        guard let uri = soup_server_message_get_uri(msg), let query = g_uri_get_query(uri) else { return nil }
        return QueryString.parse(String(cString: query))[name]
    }
}
