import FoundationEssentials
import Glibc
import RelavoiCore

/// What the D-Bus control interface (`com.relavoi.Agent1`) drives: the
/// agent's banners, as an iOS app drives `LiveActivityManager`. Arguments
/// arrive already validated (`ControlArguments`); implementations throw
/// `.unknownSession` for a session they do not show.
@MainActor
public protocol BannerControl: AnyObject {
    /// Shows a banner for the call, its timer running from now. Starting a
    /// session that is already shown replaces its banner.
    func startBanner(sessionId: String, proxyNumber: String, label: String, verified: Bool) throws(ControlError)
    /// Re-anchors the timer at `elapsedSeconds` and updates badge and label.
    func updateBanner(sessionId: String, elapsedSeconds: Int, verified: Bool, label: String) throws(ControlError)
    /// Ends the banner per `policy`.
    func endBanner(sessionId: String, policy: DismissPolicy) throws(ControlError)
    /// Every call banner shown now, oldest call first.
    func listBanners() -> [BannerListing]
    /// Closes the call's banner as the user would from the tray: the call is
    /// no longer shown (`Dismiss`, a panel's menu).
    func dismissBanner(sessionId: String) throws(ControlError)
    /// Opens the call's page (`open-url`) with the desktop's default handler
    /// (`Open`, a panel's menu); `.failed` when it is not set or cannot be built.
    func openCall(sessionId: String) throws(ControlError)
    /// Whether the Relavoi event stream is connected (the `Connected` property).
    var isStreamConnected: Bool { get }
    /// Named figures of the running agent (`Diagnostics()`, `ctl diagnostics`):
    /// memory, threads, fds, GLib sources, what it tracks.
    func diagnostics() -> [(name: String, value: Int64)]
}
