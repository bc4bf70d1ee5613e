/// How the notification server shows the banners now, as its profile, the
/// settings and a panel showing the calls make it: what `BannerPostingMachine`
/// needs to know of the renderer (`BannerRenderer.serverView`).
public struct BannerServerView: Equatable, Sendable {
    /// A call another call outrang is posted otherwise (`BannerSnapshot.outrung`;
    /// `BannerRenderer.yieldsToNewerRinging`): a change of that alone is posted,
    /// and an outrung live call's ticks are not (it shows no running timer).
    public var yieldsToNewerRinging: Bool
    /// A live call's content shows a running timer (`BannerRenderer.liveShowsTimer`):
    /// a tick that changes only its seconds is posted.
    public var liveShowsTimer: Bool
    /// The kinds whose notification leaves the screen by itself while the call
    /// goes on (`BannerRenderer.leavesScreenByItself`): its expiry keeps the call.
    public var leavesScreenByItself: Set<BannerSnapshot.Kind>
    /// The `NotificationClosed` reasons that mean the person closed it
    /// (`NotificationServerRules.dismissalReasons`).
    public var dismissalReasons: Set<Int>
}
