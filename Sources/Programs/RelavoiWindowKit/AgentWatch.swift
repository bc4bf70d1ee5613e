import FoundationEssentials
import RelavoiClient
import RelavoiDBus
import RelavoiGLib

/// Follows the agent on the session bus: who owns `com.relavoi.Agent`, and its
/// properties, read again (one small `GetAll`) when it appears and on each
/// `PropertiesChanged` it emits for `Health` and `Calls`, so a change shows at once and
/// nothing polls (the page's timers tick from `answered-at`, as the panels' do).
@MainActor
package final class AgentWatch {
    package private(set) var state = AgentState()
    private let bus: BusConnection
    private let onChange: @MainActor (AgentState) -> Void
    private var nameWatch: BusNameWatch?
    private var changes: BusSignalSubscription?
    private var reading = false
    /// A change came while a read was under way: read once more after it.
    private var readAgain = false

    package init(bus: BusConnection, onChange: @escaping @MainActor (AgentState) -> Void) {
        self.bus = bus
        self.onChange = onChange
        nameWatch = BusNameWatch(connection: bus, name: AgentBus.name) { [weak self] _ in self?.refresh() }
        changes = BusSignalSubscription(
            connection: bus, sender: AgentBus.name, interface: "org.freedesktop.DBus.Properties",
            member: "PropertiesChanged", path: AgentBus.objectPath, arg0: AgentBus.interface
        ) { [weak self] _ in self?.refresh() }
    }

    /// Reads the properties now (or says no agent).
    package func refresh() {
        guard nameWatch?.owner != nil else {
            publish(AgentState())
            return
        }
        guard !reading else {
            readAgain = true
            return
        }
        reading = true
        readAgain = false
        bus.callAsync(
            destination: AgentBus.name, path: AgentBus.objectPath, interface: "org.freedesktop.DBus.Properties",
            method: "GetAll", arguments: [.string(AgentBus.interface)], autoStart: false, timeoutMilliseconds: 3000
        ) { [weak self] result in
            guard let self else { return }
            reading = false
            switch result {
            case .success(let reply): publish(AgentState(properties: reply))
            case .failure(let error):
                Log.debug("the agent's properties: \(error)")
                publish(AgentState())
            }
            if readAgain { refresh() }
        }
    }

    private func publish(_ new: AgentState) {
        let changed = new != state
        state = new
        if changed { onChange(new) }
    }
}
