/// The stream connection's production timings, in seconds: the defaults of
/// `RelavoiConfig` and of the connection machine's settings, written once.
public enum StreamTimings {
    /// Send a text `ping` this often while the socket is open.
    public static let keepAliveInterval: Double = 20
    /// Replace a socket on which nothing at all arrived for this long.
    public static let halfOpenTimeout: Double = 40
    /// Give up a handshake (TCP, TLS, upgrade) after this long.
    public static let connectTimeout: Double = 20
    /// A live connection resets the backoff once it has been live this long.
    public static let stableConnectionInterval: Double = 5
    /// Retry interval after HTTP 401 or 403 from the token endpoint.
    public static let unauthorizedRetryInterval: Double = 60
    /// Least wait after HTTP 429 without Retry-After.
    public static let rateLimitedRetryMinimum: Double = 10
    /// After a reconnect asked on an open socket: how long a probe ping may go unanswered.
    public static let probeTimeout: Double = 5
}
