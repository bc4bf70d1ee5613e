import FoundationEssentials
import Glibc
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines
import RelavoiNotify
import RelavoiTray

/// The panel item (`tray-item`, docs/tray.md): reads the calls from the
/// banner control, shows them through `StatusNotifierItemObject` and its
/// dbusmenu, registers with each StatusNotifierWatcher, and carries out menu
/// clicks. `refresh()` runs when a call changes and on each tick of the
/// banners' timer; what to show and when to signal is decided in RelavoiCore.
@MainActor
public final class TrayItemController {
    /// Owned by the GNOME Shell extension while it shows the calls.
    public static let shellIndicatorName = "com.relavoi.Agent.ShellIndicator"

    private weak var control: (any BannerControl)?
    private let mode: TrayItemMode
    private let openURL: OpenURLTemplate?
    /// The item's words (read once by the agent), the banners' among them.
    private let phrases: TrayPhrases
    private let connection: BusConnection
    private let now: () -> Date
    private let item: StatusNotifierItemObject
    private var menu: TrayMenuServer?
    private let registration: StatusNotifierRegistration
    private let clipboard: ClipboardTool?
    private var pacer = TraySignalPacer()
    private var slots = TrayMenuSlots()
    /// A panel shows the calls (the GNOME extension owns its name, or the Plasma widget
    /// said `ShowingCalls`): hidden meanwhile with `tray-item = auto` (the agent sets it
    /// from its `PanelWidgets`, the one watch of both).
    public var panelShowsCalls = false {
        didSet {
            guard panelShowsCalls != oldValue else { return }
            Log.debug("tray item: a panel widget \(panelShowsCalls ? "shows the calls: item hidden" : "is gone")")
            refresh()
        }
    }
    /// The item is shown: not hidden while a panel shows the calls (`tray-item = auto`).
    public var isShown: Bool { !(mode == .auto && panelShowsCalls) }
    /// Why calls cannot show, said while there is no call (the agent sets it).
    public var health: ConnectionHealth = .connected {
        didSet { if health != oldValue { refresh() } }
    }
    /// Set for a change that came in a second which already had its signals
    /// (5 ms after that second ends); a running call's label rides on the
    /// banners' tick instead.
    private lazy var deferred = DeadlineTimer(slack: 0.005) { [weak self] in self?.refresh() }

    /// The item per `mode`, exported and registering; nil for `off` or without a bus.
    public static func start(
        mode: TrayItemMode, openURL: OpenURLTemplate? = nil, control: any BannerControl, phrases: TrayPhrases,
        now: @escaping () -> Date = Date.init
    ) -> TrayItemController? {
        guard mode != .off else {
            Log.debug("tray item: off (tray-item = off)")
            return nil
        }
        guard let connection = try? BusConnection.session() else {
            Log.warning("tray item: no session bus")
            return nil
        }
        let tray = TrayItemController(
            mode: mode, openURL: openURL, control: control, phrases: phrases, connection: connection, now: now)
        do {
            try tray.item.register()
        } catch {
            Log.warning("tray item: \(error)")
            return nil
        }
        tray.menu = TrayMenuServer { [weak tray] itemId, eventId in tray?.menuEvent(itemId: itemId, eventId: eventId) }
        tray.registration.onWatcherAppeared = { [weak tray] in tray?.refresh() }
        tray.registration.start()
        tray.refresh()
        return tray
    }

    private init(
        mode: TrayItemMode, openURL: OpenURLTemplate?, control: any BannerControl, phrases: TrayPhrases,
        connection: BusConnection, now: @escaping () -> Date
    ) {
        self.mode = mode
        self.openURL = openURL
        self.phrases = phrases
        self.control = control
        self.connection = connection
        self.now = now
        clipboard = ClipboardTool.find()
        let activation = ActivationTarget()
        item = StatusNotifierItemObject(
            connection: connection, id: "com.relavoi.Agent", menuPath: TrayMenuServer.path,
            iconThemePath: Self.iconThemePath(), itemIsMenu: openURL == nil,
            onActivate: { activation.controller?.activate() })
        registration = StatusNotifierRegistration(connection: connection)
        activation.controller = self
    }

    /// Lets the item's click reach the controller that owns the item, weakly.
    private final class ActivationTarget {
        weak var controller: TrayItemController?
    }

    /// A left click: the call's page when `open-url` is set (else the item is a menu).
    private func activate() {
        let calls = (control?.listBanners() ?? []).map(Self.trayCall)
        switch TrayActivation.outcome(opensPages: openURL != nil, calls: calls) {
        case .open(let sessionId):
            // The controller expands open-url with the session's metadata and logs the outcome.
            do throws(ControlError) {
                try control?.openCall(sessionId: sessionId)
            } catch {
                Log.warning("tray item: cannot open the call's page: \(error)")
            }
        case .nothing(let why):
            Log.debug("tray item: Activate: \(why)")
        }
    }

    public func stop() {
        deferred.schedule(at: nil, now: now())
        registration.stop()
        item.unregister()
        menu = nil
    }

    /// Shows the calls as of now; signals what changed unless this second
    /// already had its signals (then once the next second starts).
    public func refresh() {
        guard item.isRegistered else { return }
        // No panel without a watcher: the item's properties stay current for a reader
        // (worked out when one asks), but the menu's updates and two signals a second
        // would reach nobody (the pacer still holds what was last sent); a watcher's
        // arrival refreshes both.
        guard registration.watcherOwner != nil else {
            item.setView { [weak self] in self?.currentView() ?? TrayItemView() }
            return
        }
        let time = now()
        let view = currentView(at: time)
        item.view = view
        menu?.show(view.menu)
        switch pacer.offer(view, now: time) {
        case .emit(let signals):
            item.emit(signals)
        case .wait(let until):
            // One pending refresh is enough: it shows whatever is current then.
            guard !deferred.isActive else { return }
            deferred.schedule(at: until, now: time)
        case .idle:
            break
        }
    }

    /// The calls as the item shows them at `time`.
    private func currentView(at time: Date? = nil) -> TrayItemView {
        let hidden = !isShown
        // Hidden (the GNOME extension shows the call): no listing on every tick.
        let calls = hidden ? [] : (control?.listBanners() ?? []).map(Self.trayCall)
        return TrayItemView(
            calls: calls, now: time ?? now(), hidden: hidden, canCopy: clipboard != nil,
            slots: slots.assign(calls.map(\.sessionId)), phrases: phrases,
            health: phrases.health.line(health, clock: LocalClock.hoursMinutes))
    }

    private func menuEvent(itemId: Int32, eventId: String) {
        switch TrayMenuEvent.decide(rows: menu?.rows ?? [], itemId: itemId, eventId: eventId) {
        case .dismiss(let sessionId):
            Log.info("tray item: Dismiss from the menu")
            do {
                try control?.dismissBanner(sessionId: sessionId)
            } catch {
                Log.info("tray item: nothing to dismiss: \(error)")
            }
        case .copyNumber(let number):
            clipboard?.copy(number)
        case .openSettings:
            Log.info("tray item: Settings… from the menu")
            RelavoiWindowLauncher.open(.settings, bus: connection)
        case .ignored:
            break
        case .refused(let why):
            Log.info("tray item: \(why)")
        }
    }

    static func trayCall(_ listing: BannerListing) -> TrayCall {
        let phase: TrayCall.Phase
        switch listing.phase {
        case .ringing: phase = .ringing
        case .active: phase = .live
        case .ended: phase = .ended
        case .missed: phase = .missed
        }
        return TrayCall(
            sessionId: listing.sessionId, label: listing.label, proxyNumber: listing.proxyNumber, badge: listing.badge,
            phase: phase, rangAt: listing.rangAt, answeredAt: listing.answeredAt, endedAt: listing.endedAt,
            durationSeconds: listing.durationSeconds)
    }

    /// `IconThemePath`: empty when the badge icons are installed; else the
    /// folder above the `hicolor` where the banners find them (IconLocator:
    /// the build tree's `icons/hicolor`).
    static func iconThemePath() -> String {
        let name = VerificationBadge.verified.iconName
        let found = IconLocator().resolve(name)
        guard found != name else { return "" }
        // …/icons/hicolor/scalable/status/NAME.svg → …/icons
        var folder = URL(fileURLWithPath: found)
        for _ in 0..<4 { folder.deleteLastPathComponent() }
        return folder.path
    }
}
