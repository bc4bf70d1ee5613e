import RelavoiCore

/// The agent's own notices (`AgentNotice`) by key, as a pure state machine:
/// methods return what the driver posts and whom it tells. A notice is
/// updated in place, never posted again unchanged, nothing before a
/// notification server is known, and closed once answered.
public struct NoticeMachine: Sendable {
    public enum Action: Equatable, Sendable {
        /// Post the notice: shown, or updated in place.
        case present(key: String, notice: AgentNotice)
        /// Close the notice on the server.
        case close(key: String)
        /// The notice is gone: answered with `button`, or closed unanswered (nil).
        case ended(key: String, button: String?)
    }

    public private(set) var notices: [String: AgentNotice] = [:]
    /// Whether a notification server's profile is known: nothing is posted before.
    private var serverKnown = false

    public init() {}

    /// Shows `notice` under `key`, or updates the one shown there in place.
    public mutating func show(_ notice: AgentNotice, key: String) -> [Action] {
        guard notices[key] != notice else { return [] }
        notices[key] = notice
        return serverKnown ? [.present(key: key, notice: notice)] : []
    }

    /// Closes the notice under `key`; no one hears of it.
    public mutating func close(key: String) -> [Action] {
        notices.removeValue(forKey: key) == nil ? [] : [.close(key: key)]
    }

    /// The server closed the notice (the person, or its expiry): unanswered.
    public mutating func closedByServer(key: String) -> [Action] {
        notices.removeValue(forKey: key) == nil ? [] : [.ended(key: key, button: nil)]
    }

    /// The person clicked the notice (`action` is `default`: that answers
    /// nothing) or one of its buttons: the question goes (a resident
    /// notification would stay) and the button is the answer.
    public mutating func activated(key: String, action: String) -> [Action] {
        guard action != "default", notices.removeValue(forKey: key) != nil else { return [] }
        return [.close(key: key), .ended(key: key, button: action)]
    }

    /// A notification server's profile is known (`rerender` then posts every notice).
    public mutating func serverAppeared() {
        serverKnown = true
    }

    /// Every notice posted again, after the server or the settings changed.
    public func rerender() -> [Action] {
        guard serverKnown else { return [] }
        return notices.keys.sorted().compactMap { key in notices[key].map { .present(key: key, notice: $0) } }
    }
}
