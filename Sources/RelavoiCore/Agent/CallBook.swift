import Foundation

/// Which calls get a banner: the calls the agent follows, at most
/// `maxBanners` of them shown, the rest counted in one summary notification.
/// Pure; returns what to do.
public struct CallBook: Sendable {
    public enum Phase: Equatable, Sendable {
        case ringing
        case active(startedAt: Date)
    }

    public enum Slot: Equatable, Sendable {
        case shown
        /// Waiting for a free banner; counted in the summary.
        case overflow
        /// The user dismissed its banner: followed to its end, never shown again.
        case dismissed
    }

    public struct Call: Equatable, Sendable {
        public var phase: Phase
        public var slot: Slot
        /// Order of arrival, for promotion out of the overflow.
        var sequence: Int
    }

    public enum Command: Equatable, Sendable {
        /// Show the call's banner, or move it to its new phase.
        case showBanner(sessionId: String, phase: Phase)
        /// The call is over: its banner ends.
        case endBanner(sessionId: String)
        /// The summary notification counts this many calls without a banner (0: close it).
        case summary(count: Int)
    }

    public let maxBanners: Int
    /// Calls followed at most; the oldest overflow ones go first when full.
    public let capacity: Int
    public private(set) var calls: [String: Call] = [:]
    private var nextSequence = 0

    public init(maxBanners: Int, capacity: Int = 4096) {
        self.maxBanners = max(1, maxBanners)
        self.capacity = max(self.maxBanners, capacity)
    }

    public var shownCount: Int { calls.values.count { $0.slot == .shown } }
    public var overflowCount: Int { calls.values.count { $0.slot == .overflow } }

    /// A call rang or was answered.
    public mutating func callChanged(_ sessionId: String, phase: Phase) -> [Command] {
        if var call = calls[sessionId] {
            call.phase = phase
            calls[sessionId] = call
            return call.slot == .shown ? [.showBanner(sessionId: sessionId, phase: phase)] : []
        }
        if calls.count >= capacity, let oldest = oldest(in: .overflow) ?? oldest(in: .dismissed) {
            calls[oldest] = nil
        }
        let slot: Slot = shownCount < maxBanners ? .shown : .overflow
        calls[sessionId] = Call(phase: phase, slot: slot, sequence: nextSequence)
        nextSequence += 1
        return slot == .shown ? [.showBanner(sessionId: sessionId, phase: phase)] : [.summary(count: overflowCount)]
    }

    /// A call ended, failed or its session expired; an overflow call takes its place.
    public mutating func callFinished(_ sessionId: String) -> [Command] {
        guard let call = calls.removeValue(forKey: sessionId) else { return [] }
        switch call.slot {
        case .shown: return [.endBanner(sessionId: sessionId)] + promote()
        case .overflow: return [.summary(count: overflowCount)]
        case .dismissed: return []
        }
    }

    /// The user dismissed the banner: the call stays followed but gives up its slot.
    public mutating func bannerDismissed(_ sessionId: String) -> [Command] {
        guard calls[sessionId]?.slot == .shown else { return [] }
        calls[sessionId]?.slot = .dismissed
        return promote()
    }

    private mutating func promote() -> [Command] {
        guard shownCount < maxBanners, let next = oldest(in: .overflow), let call = calls[next] else { return [] }
        calls[next]?.slot = .shown
        return [.showBanner(sessionId: next, phase: call.phase), .summary(count: overflowCount)]
    }

    private func oldest(in slot: Slot) -> String? {
        calls.filter { $0.value.slot == slot }.min { $0.value.sequence < $1.value.sequence }?.key
    }
}
