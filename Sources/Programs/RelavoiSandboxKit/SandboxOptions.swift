import Foundation

extension SandboxServer {
    /// How the sandbox behaves. The defaults are fixed test credentials: the
    /// same on every machine, never valid against the real service.
    public struct Options: Sendable, Equatable {
        public static let defaultAPIKey = "rk_test_" + String(repeating: "5a4d", count: 12)
        public static let defaultAPISecret = "rs_" + String(repeating: "0badc0de", count: 8)
        public static let defaultTenantId = "5a4d0000-0000-4000-8000-00000000c0de"

        public var apiKey: String
        public var apiSecret: String
        public var tenantId: String
        /// Seconds a token lives (`expiresIn`, `exp`).
        public var tokenLifetime: TimeInterval
        /// Seconds between server WebSocket pings (whole seconds, rounded up); 0 = none.
        public var pingInterval: TimeInterval
        /// Token requests allowed per key in any 60 s window; 0 = unlimited.
        public var tokenRateLimitPerMinute: Int
        /// `GET /sessions/verify` needs a call within this many seconds; nil = no time condition.
        public var verifyCallWindow: TimeInterval?
        /// Answer every REST call (not the token exchange) with this status.
        public var failREST: Int?
        /// Answer every token request with this status.
        public var failTokenRequests: Int?
        /// Delay every HTTP answer by this many seconds.
        public var responseDelay: TimeInterval
        /// Delay REST answers (not the token exchange) by this many seconds more: a slow network.
        public var restLatency: TimeInterval
        /// Keep sessions and call records in step with the events sent.
        public var trackEvents: Bool
        /// Drop (no close frame) a client that answered no server ping for
        /// about two ping intervals, as the real server does.
        public var dropUnresponsiveClients: Bool

        public init(
            apiKey: String = Options.defaultAPIKey,
            apiSecret: String = Options.defaultAPISecret,
            tenantId: String = Options.defaultTenantId,
            tokenLifetime: TimeInterval = 900,
            pingInterval: TimeInterval = 30,
            tokenRateLimitPerMinute: Int = 10,
            verifyCallWindow: TimeInterval? = 60,
            failREST: Int? = nil,
            failTokenRequests: Int? = nil,
            responseDelay: TimeInterval = 0,
            restLatency: TimeInterval = 0,
            trackEvents: Bool = true,
            dropUnresponsiveClients: Bool = true
        ) {
            self.apiKey = apiKey
            self.apiSecret = apiSecret
            self.tenantId = tenantId
            self.tokenLifetime = tokenLifetime
            self.pingInterval = pingInterval
            self.tokenRateLimitPerMinute = tokenRateLimitPerMinute
            self.verifyCallWindow = verifyCallWindow
            self.failREST = failREST
            self.failTokenRequests = failTokenRequests
            self.responseDelay = responseDelay
            self.restLatency = restLatency
            self.trackEvents = trackEvents
            self.dropUnresponsiveClients = dropUnresponsiveClients
        }
    }
}
