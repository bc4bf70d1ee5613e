import CGLib
import CSoup

/// A libsoup `SoupSession` on the thread-default main context of the thread
/// that creates it (the GLib main loop's, for the agent).
///
/// `noProxy` drops the proxy resolver: for loopback hosts, where the
/// default resolver would only load GSettings/dconf for nothing. TLS
/// certificates are checked with the system trust store (glib-networking)
/// and never overridden here.
@MainActor
public final class SoupClientSession {
    nonisolated(unsafe) let session: UnsafeMutablePointer<SoupSession>

    /// - Parameters:
    ///   - noProxy: do not consult the system proxy settings.
    ///   - timeout: I/O timeout in seconds (0: none). Keep 0 for sessions
    ///     that carry WebSockets: a socket timeout would close a quiet stream.
    ///   - userAgent: the `User-Agent` header.
    public init(noProxy: Bool, timeout: UInt32 = 0, userAgent: String = "relavoi-agent") {
        session = soup_session_new()
        if noProxy { soup_session_set_proxy_resolver(session, nil) }
        soup_session_set_timeout(session, timeout)
        soup_session_set_user_agent(session, userAgent)
    }

    deinit {
        soup_session_abort(session)
        g_object_unref(session)
    }
}
