import FoundationEssentials
import RelavoiCore
import RelavoiDBus
import RelavoiGLib
import RelavoiMachines

/// Watches the desktop's Do Not Disturb: GNOME's `show-banners` setting, the
/// `Inhibited` property KDE Plasma's server exposes, and the running
/// desktop's own switch where its server's rules name one (Cinnamon,
/// xfce4-notifyd, SwayNotificationCenter). Runs on the main loop; every
/// D-Bus call is asynchronous so a hung service cannot stall it.
@MainActor
public final class DoNotDisturbWatch {
    public private(set) var isOn = false
    private var gnomeBannersOff = false
    private var serverInhibited = false
    private var desktopSwitchOn = false
    private let onChange: @MainActor (Bool) -> Void
    private var gnomeBanners: SettingsKeyWatch?
    private var bus: BusConnection?
    private var inhibitedChanges: BusSignalSubscription?
    /// What hears the desktop's switch change (a settings watch or a signal subscription).
    private var desktopWatch: AnyObject?
    /// Moves on with each switch followed, so that a late answer about an earlier one is dropped.
    private var generation = 0

    public init(onChange: @escaping @MainActor (Bool) -> Void) {
        self.onChange = onChange
    }

    public func start() {
        gnomeBanners = SettingsKeyWatch(schema: "org.gnome.desktop.notifications", key: "show-banners") {
            [weak self] shown in
            self?.gnomeBannersOff = !shown
            self?.recompute()
        }
        gnomeBannersOff = gnomeBanners.map { !$0.value } ?? false
        bus = try? BusConnection.session()
        watchInhibitedProperty()
        recompute()
    }

    /// A notification server took the name (the first, or another after one
    /// went): its `Inhibited` and the desktop switch its rules name (nil:
    /// none) are read anew, as a new server may say otherwise than the last.
    public func serverAppeared(following desktopSwitch: DoNotDisturbSwitch?) {
        Log.debug("do not disturb: following \(desktopSwitch.map { "\($0)" } ?? "no desktop switch")")
        generation += 1
        serverInhibited = false
        readInhibitedProperty()
        desktopWatch = nil
        desktopSwitchOn = false
        switch desktopSwitch {
        case nil:
            break
        case .settingsKeyOff(let schema, let key):
            let watch = SettingsKeyWatch(schema: schema, key: key) { [weak self] shown in
                self?.setDesktopSwitch(!shown)
            }
            desktopWatch = watch
            desktopSwitchOn = watch.map { !$0.value } ?? false
        case .xfconfProperty(let channel, let property):
            followXfconf(channel: channel, property: property)
        case .swayNotificationCenter:
            followSwayNotificationCenter()
        }
        recompute()
    }

    private func setDesktopSwitch(_ on: Bool) {
        desktopSwitchOn = on
        recompute()
    }

    private func recompute() {
        let now = gnomeBannersOff || serverInhibited || desktopSwitchOn
        guard now != isOn else { return }
        isOn = now
        Log.info("do not disturb is \(now ? "on" : "off")")
        onChange(now)
    }

    // MARK: KDE Plasma's Inhibited property

    private func watchInhibitedProperty() {
        guard let bus else { return }
        inhibitedChanges = BusSignalSubscription(
            connection: bus, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: NotificationsBus.path, arg0: NotificationsBus.interface
        ) { [weak self] signal in
            // (interface, changed properties a{sv}, invalidated as)
            guard signal.arguments.count > 1, let changed = signal.arguments[1].children else { return }
            for case .dictEntry(.string("Inhibited"), let value) in changed {
                guard let inhibited = Self.bool(value) else { continue }
                self?.serverInhibited = inhibited
                self?.recompute()
            }
        }
    }

    private func readInhibitedProperty() {
        // Servers other than Plasma answer with an error: then it stays off.
        readOnce(
            destination: NotificationsBus.name, path: NotificationsBus.path,
            interface: "org.freedesktop.DBus.Properties", method: "Get",
            arguments: [.string(NotificationsBus.interface), .string("Inhibited")], generation: generation
        ) { [weak self] inhibited in
            self?.serverInhibited = inhibited
            self?.recompute()
        }
    }

    // MARK: Desktops' own switches

    /// xfce4-notifyd's `/do-not-disturb`, kept by xfconfd.
    private func followXfconf(channel: String, property: String) {
        guard let bus else { return }
        desktopWatch = BusSignalSubscription(
            connection: bus, interface: "org.xfce.Xfconf", member: nil, path: "/org/xfce/Xfconf", arg0: channel
        ) { [weak self] signal in
            // PropertyChanged (channel, property, value); PropertyRemoved (channel, property)
            guard signal.arguments.count > 1, signal.arguments[1].stringValue == property else { return }
            switch signal.member {
            case "PropertyChanged": self?.setDesktopSwitch(signal.arguments.last.flatMap(Self.bool) ?? false)
            case "PropertyRemoved": self?.setDesktopSwitch(false)
            default: break
            }
        }
        readOnce(
            destination: "org.xfce.Xfconf", path: "/org/xfce/Xfconf", interface: "org.xfce.Xfconf",
            method: "GetProperty", arguments: [.string(channel), .string(property)], generation: generation
        ) { [weak self] on in self?.setDesktopSwitch(on) }
    }

    private func followSwayNotificationCenter() {
        guard let bus else { return }
        let (name, path) = ("org.erikreider.swaync.cc", "/org/erikreider/swaync/cc")
        desktopWatch = BusSignalSubscription(connection: bus, interface: name, member: nil, path: path) {
            [weak self] signal in
            // Subscribe (count, dnd, visible) in 0.7; SubscribeV2 (count, dnd, visible, inhibited) later.
            guard signal.member.hasPrefix("Subscribe"), signal.arguments.count > 1,
                let on = signal.arguments[1].boolValue
            else { return }
            self?.setDesktopSwitch(on)
        }
        readOnce(destination: name, path: path, interface: name, method: "GetDnd", generation: generation) {
            [weak self] on in self?.setDesktopSwitch(on)
        }
    }

    /// Reads a switch once (the signals tell only its changes). An error (no
    /// such service or property) leaves it off; an answer that comes after
    /// another server appeared (`generation`) is dropped.
    private func readOnce(
        destination: String, path: String, interface: String, method: String, arguments: [DBusValue] = [],
        generation asked: Int, then: @escaping @MainActor (Bool) -> Void
    ) {
        bus?.callAsync(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments,
            autoStart: false, timeoutMilliseconds: 5000
        ) { [weak self] result in
            guard let self, asked == self.generation else { return }
            switch result {
            case .success(let reply):
                if let on = reply.children?.first.flatMap(Self.bool) { then(on) }
            case .failure(let error):
                Log.debug("no Do Not Disturb from \(destination) \(method): \(error)")
            }
        }
    }

    private static func bool(_ value: DBusValue) -> Bool? {
        if case .variant(let inner) = value { return bool(inner) }
        return value.boolValue
    }
}
