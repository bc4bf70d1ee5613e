import FoundationEssentials

/// When the agent gives back the pages of code it no longer touches
/// (`ResidentFilePages`): once it is quiet after new work ran (a call
/// changed, the stream connected), so a release does not land among the
/// work it follows; at the latest `maximumWait` after that work began, so a
/// busy tenant still gets it; and every `interval` in any case. Pure.
public struct PageReleaseSchedule: Sendable, Equatable {
    /// Quiet for this long after the last change: release.
    public var quiet: Double = 1
    /// Changes keep coming: release this long after the first of them.
    public var maximumWait: Double = 10
    /// Release at least this often.
    public var interval: Double = 60

    private var firstChange: Date?
    private var lastChange: Date?
    private var lastRelease: Date

    public init(startedAt: Date) {
        lastRelease = startedAt
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
        lastRelease = now
        firstChange = nil
        lastChange = nil
    }

    /// The next release.
    public var nextRelease: Date {
        let periodic = lastRelease.addingTimeInterval(interval)
        guard let firstChange, let lastChange else { return periodic }
        let settled = min(
            lastChange.addingTimeInterval(quiet), firstChange.addingTimeInterval(maximumWait))
        return min(settled, periodic)
    }
}
