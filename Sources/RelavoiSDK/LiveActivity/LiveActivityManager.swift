import Foundation
import RelavoiGLib

/// The Linux Live Activity: one call's banner, as a freedesktop notification
/// that ticks every second until the call ends. Create one per call, as on iOS.
@MainActor
public final class LiveActivityManager {
    public enum ActivityError: Error, Equatable, CustomStringConvertible {
        case invalidArgument(String)
        public var description: String {
            switch self {
            case .invalidArgument(let what): return "invalid argument: \(what)"
            }
        }
    }

    /// Called when the user dismissed the banner from the tray; it stays
    /// dismissed (no tick shows it again).
    public var onDismissed: (@MainActor (_ sessionId: String) -> Void)?

    public private(set) var attributes: RelavoiCallAttributes?
    /// The latest state shown, with the elapsed time as of now.
    public var state: RelavoiCallAttributes.State? {
        guard let key, let banner = center.banner(key) else { return nil }
        return RelavoiCallAttributes.State(
            elapsedSeconds: banner.snapshot(at: center.now()).seconds, verified: banner.verified,
            otherPartyLabel: banner.label)
    }
    /// Whether this manager's banner is on the server (not ended-and-closed, not dismissed).
    public var isActive: Bool { key.flatMap { center.banner($0) } != nil }

    private let center: BannerCenter
    private var key: String?

    public init() {
        center = .shared
    }

    /// Shows the call's banner, its timer running from now. Does nothing (one
    /// log line) when banners are off in the settings or no notification
    /// server can be reached. Starting again replaces this manager's banner.
    public func start(sessionId: String, proxyNumber: String, otherPartyLabel: String, verified: Bool) async throws {
        guard !sessionId.isEmpty else { throw ActivityError.invalidArgument("sessionId is empty") }
        guard await center.bannersAvailable() else {
            Log.message(
                "live activity for \(sessionId) not shown: banners are off or no notification server is running")
            return
        }
        let key = key ?? center.makeKey(prefix: sessionId)
        self.key = key
        let attributes = RelavoiCallAttributes(sessionId: sessionId, proxyNumber: proxyNumber, startedAt: center.now())
        self.attributes = attributes
        let banner = Banner(attributes: attributes, verified: verified, label: otherPartyLabel, phase: .active)
        center.show(banner, key: key) { [weak self] byUser in
            guard let self, self.key == key else { return }
            self.key = nil
            if byUser { self.onDismissed?(sessionId) }
        }
    }

    /// Pushes a new state: the elapsed time re-anchors the timer, which goes on ticking.
    public func update(state: RelavoiCallAttributes.State) async {
        guard let key else { return }
        center.update(
            key: key, elapsedSeconds: state.elapsedSeconds, verified: state.verified, label: state.otherPartyLabel)
    }

    /// Ends the banner per `dismissPolicy` (`.immediate` by default, as on iOS).
    public func end(dismissPolicy: DismissPolicy = .immediate) async {
        guard let key else { return }
        center.end(key: key, policy: dismissPolicy)
        if dismissPolicy == .immediate { self.key = nil }
    }
}
