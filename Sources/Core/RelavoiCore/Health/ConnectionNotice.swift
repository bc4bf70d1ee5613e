import FoundationEssentials

/// The one notice about the connection: which problem, and since when. The
/// driver words it (refused and not set up name `relavoi-agent login` and
/// offer a "Sign in" button that opens the window; offline is shown at low urgency).
public struct ConnectionNotice: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case offline
        case refused
        case notSetUp
    }

    public var kind: Kind
    /// Nil for `notSetUp`: there is no moment it began.
    public var since: Date?

    public init(kind: Kind, since: Date?) {
        self.kind = kind
        self.since = since
    }
}
