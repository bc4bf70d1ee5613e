import FoundationEssentials

/// What the agent does for a menu event, decided from the event's arguments
/// alone (the driver hears every `Event` libdbusmenu accepted).
public enum TrayMenuEvent {
    public enum Outcome: Equatable, Sendable {
        case copyNumber(String)
        case dismiss(sessionId: String)
        case openSettings
        /// A known event with nothing to do (hover, open, a click on text).
        case ignored
        /// Not an event for this menu; the message is printable ASCII for the log.
        case refused(String)
    }

    /// The event names of the dbusmenu protocol.
    public static let knownEvents: Set<String> = ["clicked", "hovered", "opened", "closed"]

    public static func decide(rows: [TrayMenuRow], itemId: Int32, eventId: String) -> Outcome {
        guard knownEvents.contains(eventId) else {
            return .refused("menu event \(shown(eventId)) is not a dbusmenu event")
        }
        // 0 is the root: "opened"/"closed" arrive for it.
        if itemId == 0 { return .ignored }
        guard let row = rows.first(where: { $0.id == itemId }) else {
            return .refused("menu event \(eventId) for item \(itemId), which the menu does not have")
        }
        guard eventId == "clicked" else { return .ignored }
        switch row.kind {
        case .copyNumber(let number): return .copyNumber(number)
        case .dismiss(let sessionId): return .dismiss(sessionId: sessionId)
        case .openSettings: return .openSettings
        case .text, .separator: return .ignored
        }
    }

    /// A name for the log: short plain names as they are, anything else by length.
    static func shown(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_.".unicodeScalars.contains($0)
        }
        return plain && name.utf8.count <= 32 ? "\"\(name)\"" : "of \(name.utf8.count) bytes"
    }
}
