import FoundationEssentials

/// One row of the item's menu (`com.canonical.dbusmenu`): per call its
/// label and timer, number, badge words, then "Copy number" and "Dismiss".
public struct TrayMenuRow: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Text only, not clickable.
        case text
        case separator
        case copyNumber(String)
        case dismiss(sessionId: String)
    }

    /// The dbusmenu id: the call's slot times `TrayMenuSlots.rowsPerCall` plus the row.
    public var id: Int32
    public var kind: Kind
    public var label: String

    public init(id: Int32, kind: Kind, label: String) {
        self.id = id
        self.kind = kind
        self.label = label
    }

    static func rows(
        calls: [TrayCall], now: Date, canCopy: Bool, slots: [String: Int32], phrases: TrayPhrases
    ) -> [TrayMenuRow] {
        var rows: [TrayMenuRow] = []
        var seen: Set<String> = []
        // A session listed twice (never from the agent) keeps its first rows: ids stay unique.
        for call in calls where seen.insert(call.sessionId).inserted {
            guard let slot = slots[call.sessionId] else { continue }
            let base = slot * TrayMenuSlots.rowsPerCall
            if !rows.isEmpty { rows.append(TrayMenuRow(id: base, kind: .separator, label: "")) }
            rows.append(
                TrayMenuRow(
                    id: base + 1, kind: .text,
                    label: "\(call.displayLabel(phrases))  \(call.timerText(at: now, phrases))"))
            if !call.proxyNumber.isEmpty {
                rows.append(TrayMenuRow(id: base + 2, kind: .text, label: call.proxyNumber))
            }
            rows.append(TrayMenuRow(id: base + 3, kind: .text, label: phrases.banner.words(call.badge)))
            if canCopy, !call.proxyNumber.isEmpty {
                rows.append(TrayMenuRow(id: base + 4, kind: .copyNumber(call.proxyNumber), label: phrases.copyNumber))
            }
            rows.append(TrayMenuRow(id: base + 5, kind: .dismiss(sessionId: call.sessionId), label: phrases.dismiss))
        }
        return rows
    }

    /// The same row with its text left out: rows whose shapes are equal can
    /// be updated in place, others need a new layout.
    public var shape: TrayMenuRow {
        var copy = self
        copy.label = ""
        return copy
    }
}

/// Each call keeps its menu ids while it is shown, and an id is not given to
/// another call soon after: a click on a menu a host drew a moment ago reaches
/// the call it showed, or no call.
public struct TrayMenuSlots: Sendable {
    /// Ids a call's rows use: slot × 8 + 0…5.
    public static let rowsPerCall: Int32 = 8
    /// The highest slot whose ids fit in Int32.
    static let lastSlot = Int32.max / rowsPerCall - 1

    public private(set) var slots: [String: Int32] = [:]
    private var next: Int32 = 1

    public init() {}

    /// Slots for these sessions; sessions not listed are forgotten.
    public mutating func assign(_ sessionIds: [String]) -> [String: Int32] {
        slots = slots.filter { sessionIds.contains($0.key) }
        for id in sessionIds where slots[id] == nil {
            let used = Set(slots.values)
            while used.contains(next) { next = next >= Self.lastSlot ? 1 : next + 1 }
            slots[id] = next
            next = next >= Self.lastSlot ? 1 : next + 1
        }
        return slots
    }
}

/// What the agent does for a menu event, decided from the event's arguments
/// alone (the adapter hears every `Event` libdbusmenu accepted).
public enum TrayMenuEvent {
    public enum Outcome: Equatable, Sendable {
        case copyNumber(String)
        case dismiss(sessionId: String)
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
