import CGLib
import CSoup
import Foundation
import RelavoiGLib

/// Creates the `SoupServer`, registers the handlers and binds 127.0.0.1.
/// Every callback reaches the `SandboxServer` through a weak `ServerLink`.
@MainActor
enum SoupServerSetup {
    static func listen(port: UInt16, for sandbox: SandboxServer) throws -> (
        server: UnsafeMutablePointer<SoupServer>, port: UInt16
    ) {
        guard let object = g_object_new_with_properties(soup_server_get_type(), 0, nil, nil) else {
            throw SandboxError.listenFailed("cannot create SoupServer")
        }
        let server = UnsafeMutableRawPointer(object).assumingMemoryBound(to: SoupServer.self)
        let link = ServerLink(sandbox)
        soup_server_add_early_handler(server, nil, earlyHandler, link.retainedPointer(), ServerLink.destroy)
        soup_server_add_handler(server, nil, httpHandler, link.retainedPointer(), ServerLink.destroy)
        soup_server_add_websocket_handler(
            server, "/ws", nil, nil, webSocketHandler, link.retainedPointer(), ServerLink.destroy)

        var error: UnsafeMutablePointer<GError>?
        guard soup_server_listen_local(server, guint(port), SOUP_SERVER_LISTEN_IPV4_ONLY, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            g_object_unref(server)
            throw SandboxError.listenFailed(message)
        }
        return (server, boundPort(server) ?? port)
    }

    private static func boundPort(_ server: UnsafeMutablePointer<SoupServer>) -> UInt16? {
        let uris = soup_server_get_uris(server)
        defer { g_slist_free_full(uris) { uri in g_uri_unref(OpaquePointer(uri)) } }
        var node = uris
        while let current = node {
            if let uri = current.pointee.data {
                let port = g_uri_get_port(OpaquePointer(uri))
                if port > 0, port <= 65535 { return UInt16(port) }
            }
            node = current.pointee.next
        }
        return nil
    }

    /// After the headers, before the body: bound what a request may send.
    private static let earlyHandler: SoupServerCallback = { _, msg, path, _, _ in
        guard let msg else { return }
        let headers = soup_server_message_get_request_headers(msg)
        let body = soup_server_message_get_request_body(msg)
        let isToken = path.map { String(cString: $0) } == "/v1/auth/token"
        guard isToken else {
            // Nothing else reads a body: do not keep one.
            soup_message_body_set_accumulate(body, 0)
            return
        }
        let encoding = soup_message_headers_get_encoding(headers)
        let tooLong =
            encoding == SOUP_ENCODING_CONTENT_LENGTH
            && soup_message_headers_get_content_length(headers) > goffset(SandboxState.maxTokenBody)
        if tooLong || encoding == SOUP_ENCODING_CHUNKED || encoding == SOUP_ENCODING_EOF {
            soup_message_body_set_accumulate(body, 0)
            let response =
                tooLong
                ? RESTResponse.error(413, "payload_too_large", "the token request body is limited to 64 KiB")
                : RESTResponse.error(411, "length_required", "send a Content-Length")
            SoupMessage.respond(msg, response)
        }
    }

    private static let httpHandler: SoupServerCallback = { _, msg, _, _, data in
        guard let msg, let data else { return }
        let link = ServerLink.from(data)
        let request = SoupMessage.request(msg)
        let message = MainThreadPointer(raw: msg)
        MainActor.assumeIsolated { link.server?.serveHTTP(request, message) }
    }

    private static let webSocketHandler: SoupServerWebsocketCallback = { _, msg, _, connection, data in
        guard let msg, let connection, let data else { return }
        let link = ServerLink.from(data)
        let token = SoupMessage.queryValue(msg, "token")
        let socket = soup_server_message_get_socket(msg)
        let accepted = AcceptedSocket(connection: connection, socket: socket)
        MainActor.assumeIsolated { link.server?.accept(accepted, token: token) }
    }
}
