import FoundationEssentials
import RelavoiClient
import RelavoiDBus

/// What the window knows of the running agent, from its `Health`, `Connected` and `Calls`
/// properties.
package struct AgentState: Equatable {
    /// nil: no agent owns `com.relavoi.Agent`.
    package var health: String?
    package var since: Date?
    /// The stream is live now (`Connected`). `Health` says connected only once a connection
    /// has held for `ConnectionHealthMachine.settle` (5 s, so a flapping link is not news).
    package var connected = false
    package var calls: [CallsReading.Call] = []

    package init(health: String? = nil, since: Date? = nil, calls: [CallsReading.Call] = []) {
        self.health = health
        self.since = since
        self.calls = calls
    }

    /// From `GetAll`'s reply (`(a{sv})`).
    package init(properties reply: DBusValue) {
        for entry in reply.children?.first?.children ?? [] {
            guard case .dictEntry(.string(let name), .variant(let value)) = entry else { continue }
            switch name {
            case "Health":
                let reading = HealthProperty.reading(value)
                health = reading.state
                since = reading.since
            case "Connected": connected = value.boolValue ?? false
            case "Calls": calls = CallsReading.calls(value)
            default: break
            }
        }
        if health == nil { health = "" }
    }

    /// Calls can show: the agent says connected, or its stream is live while `Health` waits
    /// out its settling time (the window shows what the person asked about at once).
    package var canShowCalls: Bool {
        health == "connected" || (connected && (health == "reconnecting" || health == "offline"))
    }

    /// Ringing, live and just-ended calls (what the agent shows as banners).
    package var inProgress: [CallsReading.Call] { calls.filter { $0.phase != "missed" } }
    package var missed: [CallsReading.Call] { calls.filter { $0.phase == "missed" } }
}
