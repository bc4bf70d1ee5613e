import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore
import RelavoiDBus
import RelavoiI18n

/// The object `/com/relavoi/Agent` implementing `com.relavoi.Agent1` (see
/// `AgentBus`) on a bus connection, forwarding validated calls to a
/// `BannerControl`. Register it before owning the bus name, so that callers
/// woken by D-Bus activation find it.
@MainActor
public final class ControlService {
    public typealias RegistrationError = ExportedObject.RegistrationError

    let connection: BusConnection
    /// Held weakly: the agent owns its banner control (which usually owns this service).
    weak var control: (any BannerControl)?
    /// The clock `End`'s "after" range is checked against.
    let now: () -> Date
    private var object: ExportedObject?
    private var announcedConnected: Bool?
    /// The calls last announced, without their ticking counts.
    private var announcedCalls: [BannerListing] = []
    /// The badge words of `Calls` (the banners' words, read once).
    let phrases: BannerPhrases
    /// What the lock screen may show of each call (`Calls`' lock-* keys);
    /// a change (agent.conf read again) is announced at once.
    var lockScreen: LockScreenPrivacy {
        didSet {
            guard lockScreen != oldValue, isRegistered else { return }
            announcedCalls = currentCalls
            object?.emitPropertiesChanged(
                interface: AgentBus.interface,
                [("Calls", CallsProperty.value(announcedCalls, phrases: phrases, lockScreen: lockScreen))])
        }
    }
    /// `ShowingCalls(b)`: the caller's unique name and what it says (the agent's `PanelWidgets`).
    public var onShowingCalls: (@MainActor (String, Bool) -> Void)?
    /// What `ConnectionHealthDriver` last published (the `Health` property).
    public private(set) var health: ConnectionHealth

    public init(
        connection: BusConnection, control: any BannerControl, phrases: BannerPhrases = .localized(),
        lockScreen: LockScreenPrivacy = .label, health: ConnectionHealth = .connected,
        now: @escaping () -> Date = Date.init
    ) {
        self.health = health
        self.connection = connection
        self.control = control
        self.phrases = phrases
        self.lockScreen = lockScreen
        self.now = now
        object = ExportedObject(
            connection: connection, path: AgentBus.objectPath, introspectionXML: AgentBus.introspectionXML,
            goneError: (AgentBus.errorFailed, "the agent is shutting down"),
            onCall: { [weak self] call in
                guard let self else { return call.fail(AgentBus.errorFailed, "the agent is shutting down") }
                self.dispatch(call)
            }, property: { [weak self] in self?.property($0) })
    }

    public var isRegistered: Bool { object?.isRegistered ?? false }

    /// Exports the object on the connection. Fails when the XML does not
    /// parse (a bug) or the path is taken on this connection.
    public func register() throws(RegistrationError) {
        guard let object, !object.isRegistered else { return }
        try object.register()
        announcedConnected = currentConnected
        announcedCalls = currentCalls
    }

    /// Removes the object from the connection (idempotent).
    public func unregister() { object?.unregister() }

    private func property(_ name: String) -> DBusValue? {
        switch name {
        case "Connected": return .bool(currentConnected)
        case "Calls": return CallsProperty.value(control?.listBanners() ?? [], phrases: phrases, lockScreen: lockScreen)
        case "Health": return HealthProperty.value(health)
        default: return nil
        }
    }

    /// Emits `BannerDismissed(session_id)`: the user closed a banner.
    public func emitBannerDismissed(sessionId: String) {
        object?.emit(interface: AgentBus.interface, signal: "BannerDismissed", [.string(sessionId)])
    }

    /// Call when the stream's connectivity may have changed: emits
    /// `PropertiesChanged` for `Connected` if its value differs from the last
    /// one announced.
    public func connectedChanged() {
        guard isRegistered else { return }
        let connected = currentConnected
        guard connected != announcedConnected else { return }
        announcedConnected = connected
        object?.emitPropertiesChanged(interface: AgentBus.interface, [("Connected", .bool(connected))])
    }

    var currentConnected: Bool { control?.isStreamConnected ?? false }

    /// Call with each state the health machine publishes: emits
    /// `PropertiesChanged` for `Health` when it differs.
    public func healthChanged(_ new: ConnectionHealth) {
        guard new != health else { return }
        health = new
        guard isRegistered else { return }
        object?.emitPropertiesChanged(interface: AgentBus.interface, [("Health", HealthProperty.value(new))])
    }

    /// Call when a call may have changed (shown, answered, verified, ended,
    /// gone): emits `PropertiesChanged` for `Calls` if it differs from what was
    /// last announced. Ticks change nothing there: panels count from the times.
    public func callsChanged() {
        guard isRegistered else { return }
        let calls = currentCalls
        guard calls != announcedCalls else { return }
        announcedCalls = calls
        object?.emitPropertiesChanged(
            interface: AgentBus.interface,
            [("Calls", CallsProperty.value(calls, phrases: phrases, lockScreen: lockScreen))])
    }

    var currentCalls: [BannerListing] { (control?.listBanners() ?? []).map(\.withoutElapsed) }
}
