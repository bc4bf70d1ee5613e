import FoundationEssentials
import Glibc
import RelavoiCore

/// What the D-Bus control interface (`com.relavoi.Agent1`) drives: the
/// agent's banners, as an iOS app drives `LiveActivityManager`. Arguments
/// arrive already validated (`ControlArguments`); implementations throw
/// `.unknownSession` for a session they do not show.
@MainActor
public protocol BannerControl: AnyObject {
    /// Shows a banner for the call, its timer running from now. Starting a
    /// session that is already shown replaces its banner.
    func startBanner(sessionId: String, proxyNumber: String, label: String, verified: Bool) throws(ControlError)
    /// Re-anchors the timer at `elapsedSeconds` and updates badge and label.
    func updateBanner(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String) throws(ControlError)
    /// Ends the banner per `policy`.
    func endBanner(sessionId: String, policy: DismissPolicy) throws(ControlError)
    /// Every call banner shown now, oldest call first.
    func listBanners() -> [BannerListing]
    /// Closes the call's banner as the user would from the tray: the call is
    /// no longer shown (`Dismiss`, a panel's menu).
    func dismissBanner(sessionId: String) throws(ControlError)
    /// Opens the call's page (`open-url`) with the desktop's default handler
    /// (`Open`, a panel's menu); `.failed` when it is not set or cannot be built.
    func openCall(sessionId: String) throws(ControlError)
    /// Whether the Relavoi event stream is connected (the `Connected` property).
    var isStreamConnected: Bool { get }
    /// Named figures of the running agent (`Diagnostics()`, `ctl diagnostics`):
    /// memory, threads, fds, GLib sources, what it tracks.
    func diagnostics() -> [(name: String, value: Int64)]
}

/// A failed control call; becomes a D-Bus error reply.
public enum ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An argument is out of shape; the message names it.
    case invalidArgument(String)
    /// No banner for this session id.
    case unknownSession(String)
    /// The agent could not carry the call out (for example, banners are off).
    case failed(String)

    /// The D-Bus error name of the reply.
    public var dbusErrorName: String {
        switch self {
        case .invalidArgument: return AgentBus.errorInvalidArgument
        case .unknownSession: return AgentBus.errorUnknownSession
        case .failed: return AgentBus.errorFailed
        }
    }

    /// The human-readable text of the reply.
    public var message: String {
        switch self {
        case .invalidArgument(let what): return what
        case .unknownSession(let id): return "no banner for session \"\(id)\""
        case .failed(let why): return why
        }
    }

    public var description: String { "\(dbusErrorName): \(message)" }
}

/// One call as the agent shows it: a row of `List()` and an entry of the
/// `Calls` property. Only what the banner shows: no key, token or metadata.
public struct BannerListing: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable, CaseIterable {
        case ringing, active, ended, missed

        /// The name in the `Calls` property and `ctl list`.
        public var callsName: String { self == .active ? "live" : rawValue }
    }

    public var sessionId: String
    public var proxyNumber: String
    public var label: String
    public var badge: VerificationBadge
    public var elapsedSeconds: Int
    public var phase: Phase
    /// When it started ringing, was answered, ended (nil: not known or not yet).
    public var rangAt: Date?
    public var answeredAt: Date?
    public var endedAt: Date?
    /// The final duration once ended, else 0.
    public var durationSeconds: Int
    /// `Open` would open a page for it (`open-url` is set and can be built).
    public var canOpen = false

    public init(
        sessionId: String, proxyNumber: String, label: String, badge: VerificationBadge, elapsedSeconds: Int,
        phase: Phase, rangAt: Date? = nil, answeredAt: Date? = nil, endedAt: Date? = nil, durationSeconds: Int = 0
    ) {
        self.sessionId = sessionId
        self.proxyNumber = proxyNumber
        self.label = label
        self.badge = badge
        self.elapsedSeconds = elapsedSeconds
        self.phase = phase
        self.rangAt = rangAt
        self.answeredAt = answeredAt
        self.endedAt = endedAt
        self.durationSeconds = durationSeconds
    }

    public init(
        sessionId: String, proxyNumber: String, label: String, verified: Bool, elapsedSeconds: Int, phase: Phase
    ) {
        self.init(
            sessionId: sessionId, proxyNumber: proxyNumber, label: label, badge: VerificationBadge(verified: verified),
            elapsedSeconds: elapsedSeconds, phase: phase)
    }

    /// The server's yes (`List()`'s boolean).
    public var verified: Bool {
        get { badge == .verified }
        set { badge = VerificationBadge(verified: newValue) }
    }

    /// The same call without the ticking count: what `PropertiesChanged` compares.
    public var withoutElapsed: BannerListing {
        var copy = self
        copy.elapsedSeconds = 0
        return copy
    }
}
