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
    /// Every banner shown now, in a stable order.
    func listBanners() -> [BannerListing]
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

/// One row of `List()`.
public struct BannerListing: Equatable, Sendable {
    public enum Phase: String, Equatable, Sendable, CaseIterable {
        case ringing, active, ended, missed
    }

    public var sessionId: String
    public var proxyNumber: String
    public var label: String
    public var verified: Bool
    public var elapsedSeconds: Int
    public var phase: Phase

    public init(
        sessionId: String, proxyNumber: String, label: String, verified: Bool, elapsedSeconds: Int, phase: Phase
    ) {
        self.sessionId = sessionId
        self.proxyNumber = proxyNumber
        self.label = label
        self.verified = verified
        self.elapsedSeconds = elapsedSeconds
        self.phase = phase
    }
}
