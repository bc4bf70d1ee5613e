import FoundationEssentials
import RelavoiCore

/// Where the Relavoi API lives and how the event stream behaves. The
/// defaults are the production values; tests shorten the timings.
public struct RelavoiConfig: Sendable {
    /// The production REST root.
    public static let defaultBaseURL = URL(string: "https://api.relavoi.com/v1")!

    /// REST root; all API paths are relative to it.
    public var baseURL: URL
    /// The stream's URL; derived from `baseURL` when nil (see `resolvedWebSocketURL`).
    public var webSocketURL: URL?

    /// First reconnect delay; doubles per failure up to `backoffCap`.
    public var backoffBase: TimeInterval
    /// The longest reconnect delay.
    public var backoffCap: TimeInterval
    /// Each delay is shortened by up to this fraction, at random.
    public var backoffJitter: Double
    /// A connection live at least this long resets the backoff to `backoffBase`.
    public var stableConnectionInterval: TimeInterval
    /// How often a text `ping` is sent on an open stream.
    public var keepAliveInterval: TimeInterval
    /// Replace the stream when nothing at all arrived for this long.
    /// With the defaults a silent half-open socket is replaced 40 s after its last frame.
    public var halfOpenTimeout: TimeInterval
    /// Give up a handshake after this long.
    public var connectTimeout: TimeInterval
    /// After `reconnectNow()` on an open stream: the probe ping's deadline.
    public var probeTimeout: TimeInterval
    /// Larger incoming frames are refused (libsoup closes the socket; we reconnect).
    public var maxFrameSize: Int
    /// Refresh the access token this long before it expires.
    public var tokenRefreshLead: TimeInterval
    /// Retry interval after the token endpoint answered 401.
    public var unauthorizedRetryInterval: TimeInterval
    /// Least wait after a 429 without Retry-After.
    public var rateLimitedRetryMinimum: TimeInterval
    /// REST and token request timeout.
    public var requestTimeout: TimeInterval
    /// How many recent event ids are remembered to drop duplicates.
    public var dedupeCapacity: Int
    /// Whose banners `LiveActivityManager` shows: the host app's by default.
    public var appIdentity: AppIdentity

    /// The production defaults; each field is described where it is declared.
    /// The backoff, token and dedupe defaults come from where they are used
    /// (`Backoff`, `TokenRefreshSchedule`, `EventDeduplicator`), the socket's
    /// timings from `StreamTimings`, which the connection machine reads too.
    public init(
        baseURL: URL = RelavoiConfig.defaultBaseURL,
        webSocketURL: URL? = nil,
        backoffBase: TimeInterval = Backoff.defaultBase,
        backoffCap: TimeInterval = Backoff.defaultCap,
        backoffJitter: Double = Backoff.defaultJitter,
        stableConnectionInterval: TimeInterval = StreamTimings.stableConnectionInterval,
        keepAliveInterval: TimeInterval = StreamTimings.keepAliveInterval,
        halfOpenTimeout: TimeInterval = StreamTimings.halfOpenTimeout,
        connectTimeout: TimeInterval = StreamTimings.connectTimeout,
        probeTimeout: TimeInterval = StreamTimings.probeTimeout,
        maxFrameSize: Int = 1 << 20,
        tokenRefreshLead: TimeInterval = TokenRefreshSchedule.defaultLead,
        unauthorizedRetryInterval: TimeInterval = StreamTimings.unauthorizedRetryInterval,
        rateLimitedRetryMinimum: TimeInterval = StreamTimings.rateLimitedRetryMinimum,
        requestTimeout: TimeInterval = 30,
        dedupeCapacity: Int = EventDeduplicator.defaultCapacity,
        appIdentity: AppIdentity = AppIdentity()
    ) {
        self.baseURL = baseURL
        self.webSocketURL = webSocketURL
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.backoffJitter = backoffJitter
        self.stableConnectionInterval = stableConnectionInterval
        self.keepAliveInterval = keepAliveInterval
        self.halfOpenTimeout = halfOpenTimeout
        self.connectTimeout = connectTimeout
        self.probeTimeout = probeTimeout
        self.maxFrameSize = maxFrameSize
        self.tokenRefreshLead = tokenRefreshLead
        self.unauthorizedRetryInterval = unauthorizedRetryInterval
        self.rateLimitedRetryMinimum = rateLimitedRetryMinimum
        self.requestTimeout = requestTimeout
        self.dedupeCapacity = dedupeCapacity
        self.appIdentity = appIdentity
    }

    /// `webSocketURL` if set; otherwise `baseURL` with `https`→`wss`,
    /// `http`→`ws`, the path replaced by `/ws` at the host root and the
    /// query dropped. The token is added per connection.
    public var resolvedWebSocketURL: URL {
        webSocketURL ?? StreamEndpoint.webSocketURL(fromBase: baseURL)
    }

    /// Throws if a URL breaks the transport policy: plain `http`/`ws` only
    /// to loopback hosts, TLS (with certificate checks) everywhere else.
    public func validate() throws(RelavoiError) {
        do {
            try StreamEndpoint.checkTransport(baseURL)
            try StreamEndpoint.checkTransport(resolvedWebSocketURL)
        } catch {
            throw RelavoiError.insecureURL(error.description)
        }
    }
}
