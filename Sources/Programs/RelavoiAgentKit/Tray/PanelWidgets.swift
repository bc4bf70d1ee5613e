import RelavoiDBus
import RelavoiGLib

/// The panels that show the calls: the GNOME Shell extension while it owns
/// `TrayItemController.shellIndicatorName`, and those that say so through
/// `ShowingCalls(b)` (the KDE Plasma widget, which owns no bus name to watch): each
/// caller counts from its true until its false or until it leaves the bus.
/// `onChange` hears when `isShowing` turns.
@MainActor
final class PanelWidgets {
    private let connection: BusConnection
    private var watches: [String: BusNameWatch] = [:]
    private var shellIndicator: BusNameWatch?
    private var shellIndicatorOwned = false
    var onChange: (@MainActor (Bool) -> Void)?

    init(connection: BusConnection) {
        self.connection = connection
        shellIndicator = BusNameWatch(connection: connection, name: TrayItemController.shellIndicatorName) {
            [weak self] owner in
            guard let self, (owner != nil) != shellIndicatorOwned else { return }
            let was = isShowing
            shellIndicatorOwned = owner != nil
            let state =
                owner.map { "owned by \($0): the GNOME Shell extension shows the calls" }
                ?? "not owned: the GNOME Shell extension no longer shows the calls"
            Log.info("panel: \(TrayItemController.shellIndicatorName) \(state)")
            if isShowing != was { onChange?(isShowing) }
        }
    }

    var isShowing: Bool { shellIndicatorOwned || !watches.isEmpty }

    func set(sender: String, shown: Bool) {
        guard !sender.isEmpty else { return }
        let was = isShowing
        if shown, watches[sender] == nil {
            Log.info("panel: \(sender) shows the calls")
            watches[sender] = BusNameWatch(connection: connection, name: sender) { [weak self] owner in
                // The unique name has an owner from the start; nil is its caller gone.
                guard owner == nil else { return }
                self?.set(sender: sender, shown: false)
            }
        } else if !shown, let watch = watches.removeValue(forKey: sender) {
            Log.info("panel: \(sender) no longer shows the calls")
            watch.stop()
        }
        if isShowing != was { onChange?(isShowing) }
    }

    func stop() {
        shellIndicator?.stop()
        for watch in watches.values { watch.stop() }
        watches = [:]
    }
}
