import FoundationEssentials

/// What the person is told about the agent's link to Relavoi, as
/// `ConnectionHealthMachine` decides it. The D-Bus property, the panel and
/// `relavoi-agent ctl status` all show this one value.
public enum ConnectionHealth: Equatable, Sendable {
    /// How long the stream must be down, in an outage, before offline is told:
    /// a blip of a minute is not news, a couple of minutes is. The default of
    /// `offline-notice-after` (here, where the settings and the machine both read it).
    public static let offlineAfter: TimeInterval = 120

    /// Live: nothing to tell.
    case connected
    /// Down for less than `offlineAfter`, or back for less than its `settle`:
    /// not news, no notice.
    case reconnecting(since: Date)
    /// The server unreachable or the network down since the connection was lost.
    case offline(since: Date)
    /// The token endpoint refused the API key or secret (HTTP 401/403): only the person can fix it.
    case refused(since: Date)
    /// No API key, tenant or secret: `relavoi-agent login` sets them up.
    case notSetUp

    public var since: Date? {
        switch self {
        case .connected, .notSetUp: return nil
        case .reconnecting(let since), .offline(let since), .refused(let since): return since
        }
    }

    /// A stable name for the D-Bus property and `ctl status`.
    public var name: String {
        switch self {
        case .connected: return "connected"
        case .reconnecting: return "reconnecting"
        case .offline: return "offline"
        case .refused: return "refused"
        case .notSetUp: return "not-set-up"
        }
    }

    /// The notice this state is told with; nil when it is not news.
    public var notice: ConnectionNotice? {
        switch self {
        case .connected, .reconnecting: return nil
        case .offline(let since): return ConnectionNotice(kind: .offline, since: since)
        case .refused(let since): return ConnectionNotice(kind: .refused, since: since)
        case .notSetUp: return ConnectionNotice(kind: .notSetUp, since: nil)
        }
    }
}
