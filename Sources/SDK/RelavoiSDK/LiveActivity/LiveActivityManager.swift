import FoundationEssentials
import RelavoiBanners
import RelavoiCore
import RelavoiGLib
import RelavoiMachines

/// The Linux Live Activity: one call's banner, as a freedesktop notification
/// that ticks every second until the call ends. Create one per call and hold
/// it for the call's lifetime, as on iOS.
///
/// Callable from any thread or actor: the banner itself lives on the GLib
/// main loop (the main actor), where each call hops, in the order made. The
/// calls run in the caller's isolation until then (`nonisolated(nonsending)`),
/// so main-actor code reaches the banner without leaving the main actor.
public final class LiveActivityManager: Sendable {
    /// Why `start` refused.
    public enum ActivityError: Error, Equatable, Sendable, CustomStringConvertible {
        /// An argument was unusable (an empty session id); the text says which.
        case invalidArgument(String)
        public var description: String {
            switch self {
            case .invalidArgument(let what): return "invalid argument: \(what)"
            }
        }
    }

    private let activity = CallActivity()

    /// Makes a manager with no banner yet; `start` shows one.
    public init() {}

    /// Shows the call's banner, its timer running from now. Does nothing (one
    /// log line) when banners are off in the settings or no notification
    /// server can be reached, as iOS does when Live Activities are off.
    /// Starting again replaces this manager's banner.
    nonisolated(nonsending) public func start(
        sessionId: String, proxyNumber: String, otherPartyLabel: String, verified: Bool
    ) async throws {
        guard !sessionId.isEmpty else { throw ActivityError.invalidArgument("sessionId is empty") }
        await activity.start(
            sessionId: sessionId, proxyNumber: proxyNumber, otherPartyLabel: otherPartyLabel, verified: verified)
    }

    /// Pushes a new state: the elapsed time re-anchors the timer, which goes on ticking.
    nonisolated(nonsending) public func update(state: RelavoiCallAttributes.State) async {
        await activity.update(state: state)
    }

    /// Ends the banner per `dismissPolicy` (`.immediate` by default, as on iOS).
    nonisolated(nonsending) public func end(dismissPolicy: DismissPolicy = .immediate) async {
        await activity.end(dismissPolicy: dismissPolicy)
    }

    /// Called when the user dismissed the banner from the tray; it stays
    /// dismissed (no tick shows it again).
    @MainActor public var onDismissed: (@MainActor (_ sessionId: String) -> Void)? {
        get { activity.onDismissed }
        set { activity.onDismissed = newValue }
    }

    /// What the banner is about; nil before `start`.
    @MainActor public var attributes: RelavoiCallAttributes? { activity.attributes }

    /// The latest state shown, with the elapsed time as of now.
    @MainActor public var state: RelavoiCallAttributes.State? { activity.state }

    /// Whether this manager's banner is on the server (not ended-and-closed, not dismissed).
    @MainActor public var isActive: Bool { activity.isActive }
}

/// One manager's banner, on the main actor.
@MainActor
private final class CallActivity {
    var onDismissed: (@MainActor (_ sessionId: String) -> Void)?
    private(set) var attributes: RelavoiCallAttributes?
    private var key: String?

    nonisolated init() {}

    private var banners: BannerDriver { .forApps }

    var state: RelavoiCallAttributes.State? {
        guard let key, let banner = banners.banner(key) else { return nil }
        return RelavoiCallAttributes.State(
            elapsedSeconds: banner.snapshot(at: banners.now()).seconds, verified: banner.verified,
            otherPartyLabel: banner.label)
    }

    var isActive: Bool { key.flatMap { banners.banner($0) } != nil }

    func start(sessionId: String, proxyNumber: String, otherPartyLabel: String, verified: Bool) async {
        guard await banners.bannersAvailable() else {
            Log.message(
                "live activity for \(sessionId) not shown: banners are off or no notification server is running")
            return
        }
        let key = key ?? banners.makeKey(prefix: sessionId)
        self.key = key
        let attributes = RelavoiCallAttributes(sessionId: sessionId, proxyNumber: proxyNumber, startedAt: banners.now())
        self.attributes = attributes
        let banner = Banner(attributes: attributes, verified: verified, label: otherPartyLabel, phase: .active)
        banners.show(banner, key: key) { [weak self] byUser in
            guard let self, self.key == key else { return }
            self.key = nil
            if byUser { self.onDismissed?(sessionId) }
        }
    }

    func update(state: RelavoiCallAttributes.State) {
        guard let key else { return }
        banners.update(
            key: key, elapsedSeconds: state.elapsedSeconds, verified: state.verified, label: state.otherPartyLabel)
    }

    func end(dismissPolicy: DismissPolicy) {
        guard let key else { return }
        banners.end(key: key, policy: dismissPolicy)
        if dismissPolicy == .immediate { self.key = nil }
    }
}
