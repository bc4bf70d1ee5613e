import FoundationEssentials

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
