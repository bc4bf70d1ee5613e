import FoundationEssentials
import RelavoiCore
import RelavoiGLib
import RelavoiMachines
import RelavoiSoup
import RelavoiStream

/// Exchanges the API key and secret for access tokens: one request at a
/// time (concurrent callers share it), refreshed `lead` seconds before
/// expiry while `autoRefresh` is on. The secret is used for nothing else
/// and never appears in a log line or an error.
@MainActor
final class TokenProvider {
    private let http: HTTPClient
    private let tokenURL: String
    private let apiKey: String
    private let apiSecret: String
    private let lead: Double
    private let unauthorizedRetryInterval: Double
    private let rateLimitedRetryMinimum: Double
    private let log: (StreamLogLevel, String) -> Void

    private(set) var current: AccessToken?
    private var inFlight: Task<Result<AccessToken, RelavoiError>, Never>?
    /// After a 401/403 or 429, REST callers get the error without a new request until then.
    private var cooldown: (until: Double, error: RelavoiError)?
    private var refreshTimer: GLibTimer?
    /// How many token requests were sent (the agent's diagnostics).
    private(set) var requestCount = 0

    /// Keep the token fresh ahead of expiry (on while the stream is wanted).
    var autoRefresh = false {
        didSet { if autoRefresh != oldValue { scheduleRefresh() } }
    }

    init(
        http: HTTPClient, config: RelavoiConfig, apiKey: String, apiSecret: String,
        log: @escaping (StreamLogLevel, String) -> Void
    ) {
        self.http = http
        self.tokenURL = StreamEndpoint.restURL(base: config.baseURL, path: "auth/token")
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.lead = config.tokenRefreshLead
        self.unauthorizedRetryInterval = config.unauthorizedRetryInterval
        self.rateLimitedRetryMinimum = config.rateLimitedRetryMinimum
        self.log = log
    }

    isolated deinit {
        refreshTimer?.cancel()
        inFlight?.cancel()
    }

    /// A usable token: the cached one unless `fresh`, else a new one.
    /// `honourCooldown`: after a 401/429, fail fast instead of asking again
    /// (REST callers); the stream keeps its own slower schedule.
    func token(fresh: Bool = false, honourCooldown: Bool = true) async throws(RelavoiError) -> String {
        let now = MonotonicClock.now()
        if fresh {
            current = nil
        } else if let current, current.isUsable(at: now, margin: 30) {
            return current.value
        }
        if honourCooldown, inFlight == nil, let cooldown, now < cooldown.until {
            throw cooldown.error
        }
        return try await fetch().get().value
    }

    /// Forgets `value` if it is the cached token (the server refused it).
    func invalidate(_ value: String) {
        if current?.value == value { current = nil }
    }

    /// The shared request; starts one if none is running.
    private func fetch() async -> Result<AccessToken, RelavoiError> {
        if let inFlight { return await inFlight.value }
        let task = Task { @MainActor in await self.request() }
        inFlight = task
        let result = await task.value
        inFlight = nil
        switch result {
        case .success(let token):
            current = token
            cooldown = nil
            scheduleRefresh()
        case .failure(.unauthorized):
            cooldown = (MonotonicClock.now() + unauthorizedRetryInterval, .unauthorized)
        case .failure(.rateLimited(let after)):
            cooldown = (
                MonotonicClock.now() + (after ?? rateLimitedRetryMinimum), .rateLimited(retryAfter: after)
            )
        case .failure:
            break
        }
        return result
    }

    private func request() async -> Result<AccessToken, RelavoiError> {
        requestCount += 1
        let startedAt = MonotonicClock.now()
        let body = TokenRequest.credentialsBody(apiKey: apiKey, apiSecret: apiSecret)
        let response: HTTPResponse
        do {
            response = try await http.postJSON(
                tokenURL, body: body, headers: [("Accept", "application/json")])
        } catch let error as SoupError {
            return .failure(.transport(error.message))
        } catch {
            return .failure(.transport(String(describing: type(of: error))))
        }
        switch response.status {
        case 200..<300:
            guard let (value, fields) = TokenRequest.accessToken(in: response.body) else {
                return .failure(.invalidResponse("token answer without accessToken"))
            }
            var expiresIn = 900.0
            switch fields["expiresIn"] {
            case .int(let seconds)? where seconds > 0: expiresIn = Double(seconds)
            case .double(let seconds)? where seconds > 0: expiresIn = seconds
            default: log(.debug, "token answer without a usable expiresIn; assuming 900 s")
            }
            return .success(AccessToken(value: value, obtainedAt: startedAt, expiresIn: expiresIn))
        case 401, 403:
            // 403 too: the server knows the key but will not let it in (revoked,
            // suspended); retrying fixes neither, only the person can.
            return .failure(.unauthorized)
        case 429:
            return .failure(.rateLimited(retryAfter: TokenRequest.retryAfter(response.headers["retry-after"])))
        default:
            return .failure(.transport("token endpoint answered HTTP \(response.status)"))
        }
    }

    private func scheduleRefresh() {
        refreshTimer?.cancel()
        refreshTimer = nil
        guard autoRefresh, let current else { return }
        let plan = TokenRefreshSchedule.refreshDelay(expiresIn: current.expiresIn, lead: lead)
        log(
            .debug,
            "the token lasts \(DurationText.seconds(current.expiresIn)); refreshing it "
                + "\(DurationText.seconds(plan)) after it was asked for")
        let delay = max(1, current.obtainedAt + plan - MonotonicClock.now())
        refreshTimer = GLibTimer.once(after: delay) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                Task { @MainActor in await self.refreshNow() }
            }
        }
    }

    /// The proactive refresh: keeps the current token until the new one is in.
    private func refreshNow() async {
        guard autoRefresh else { return }
        switch await fetch() {
        case .success:
            log(.debug, "access token refreshed")
        case .failure(.unauthorized):
            log(.warning, "token refresh refused: bad API key or secret (HTTP 401 or 403)")
        case .failure(let error):
            // Try again while the old token still has time left.
            let remaining = (current?.expiresAt ?? 0) - MonotonicClock.now()
            let retry = max(2, min(30, remaining / 2))
            log(.info, "token refresh failed (\(error)); retrying in \(Int(retry)) s")
            refreshTimer = GLibTimer.once(after: retry) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    Task { @MainActor in await self.refreshNow() }
                }
            }
        }
    }
}
