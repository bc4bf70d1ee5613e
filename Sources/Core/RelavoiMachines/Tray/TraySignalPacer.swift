import FoundationEssentials

/// Decides when the item's `New*` signals go out: only for what changed
/// since the last announced view, and at most one batch in each second of
/// the wall clock (so over any N seconds at most N + 1 batches). The
/// banners' timer ticks just past each second, so a running call's label
/// goes out on the tick; a change in a second that already had its batch
/// waits for the next second.
public struct TraySignalPacer: Sendable {
    public enum Decision: Equatable, Sendable {
        /// Emit these now; the view is announced.
        case emit([TrayItemSignal])
        /// Something changed, but this second had its batch: offer again at this time.
        case wait(until: Date)
        /// Nothing to announce.
        case idle
    }

    public private(set) var announced = TrayItemView()
    private var lastSecond: Int64?

    public init() {}

    public mutating func offer(_ view: TrayItemView, now: Date) -> Decision {
        let signals = view.signals(since: announced)
        guard !signals.isEmpty else {
            // Menus and the like change without a signal: the view is still current.
            announced = view
            return .idle
        }
        let second = Self.second(now)
        // Same second: wait for the next. (A clock set back starts over.)
        if let lastSecond, second == lastSecond {
            return .wait(until: Date(timeIntervalSince1970: TimeInterval(lastSecond + 1)))
        }
        lastSecond = second
        announced = view
        return .emit(signals)
    }

    static func second(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return 0 }
        return Int64(max(min(seconds, 9e15), -9e15).rounded(.down))
    }
}
