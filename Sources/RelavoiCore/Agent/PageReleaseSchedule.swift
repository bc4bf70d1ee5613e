import FoundationEssentials

/// When the agent gives back the pages of code it no longer touches
/// (`ResidentFilePages`): only after new work ran (a call changed, the
/// stream connected), once it is quiet, so a release does not land among the
/// work it follows; at the latest `maximumWait` after that work began, so a
/// busy tenant still gets it; and once more `settle` after that release, for
/// what ran only once after the work (GLib's idle pool threads exit 15 s
/// later, each keep-alive runs a first time). Then nothing: an idle agent
/// has no timer for it. The settling release is skipped while calls are
/// followed (`skippedSettling`): their ticks would map straight back what it
/// gives back, it stalled the main loop for up to 22 ms with a live banner,
/// and a call's end is a change with a release of its own. Pure.
public struct PageReleaseSchedule: Sendable, Equatable {
    /// Quiet for this long after the last change: release.
    public var quiet: Double = 1
    /// Changes keep coming: release this long after the first of them.
    public var maximumWait: Double = 10
    /// The one later release after a change's release.
    public var settle: Double = 60

    private var firstChange: Date?
    private var lastChange: Date?
    private var settleRelease: Date?

    /// Start-up is the first change.
    public init(startedAt: Date) {
        firstChange = startedAt
        lastChange = startedAt
    }

    /// Something new ran.
    public mutating func changed(now: Date) {
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// The release ran.
    public mutating func released(now: Date) {
        settleRelease = firstChange == nil ? nil : now.addingTimeInterval(settle)
        firstChange = nil
        lastChange = nil
    }

    /// Whether the release due next is the settling one (nothing changed since the last).
    public var isSettling: Bool { firstChange == nil && settleRelease != nil }

    /// The settling release was not run: nothing more until the next change.
    public mutating func skippedSettling() { settleRelease = nil }

    /// The next release, or nil while nothing changed since the settling one.
    public var nextRelease: Date? {
        guard let firstChange, let lastChange else { return settleRelease }
        return min(lastChange.addingTimeInterval(quiet), firstChange.addingTimeInterval(maximumWait))
    }
}
