import FoundationEssentials
import RelavoiCore

/// The `open-url` page of each session, built once when its metadata arrives
/// (`GET /sessions/{id}`): asking whether a call can be opened (the panel
/// item and the `Calls` property list the calls every second) expands no
/// template. Pure.
public struct SessionPages: Sendable {
    /// Pages kept for at most this many sessions (their ids come from the
    /// network); a new one, when full, drops the page built longest ago.
    public static let capacity = 256

    public let template: OpenURLTemplate?
    /// Only sessions whose metadata had what the template names.
    private var pages = OldestFirstTable<String, String>(capacity: SessionPages.capacity)

    public init(template: OpenURLTemplate?) {
        self.template = template
    }

    public var count: Int { pages.count }

    /// Builds the session's page from its metadata (none when the metadata
    /// lacks a key the template names).
    public mutating func remember(metadata: [String: JSONValue], of sessionId: String) {
        guard let template else { return }
        pages[sessionId] = template.expand(sessionId: sessionId, metadata: metadata)
    }

    /// The session is no longer shown.
    public mutating func forget(_ sessionId: String) {
        pages[sessionId] = nil
    }

    /// The session's page, or nil when `open-url` is unset or names metadata
    /// the session does not have (or whose metadata has not arrived).
    public func url(of sessionId: String) -> String? {
        pages[sessionId] ?? template?.expand(sessionId: sessionId, metadata: [:])
    }

    /// Whether `url(of:)` gives a page, without building it.
    public func canOpen(_ sessionId: String) -> Bool {
        guard let template else { return false }
        return !template.namesMetadata || pages[sessionId] != nil
    }
}
