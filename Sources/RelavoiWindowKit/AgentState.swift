import FoundationEssentials
import RelavoiAgentKit
import RelavoiDBus

/// What the window knows of the running agent, from its `Health` and `Calls` properties.
package struct AgentState: Equatable {
    /// nil: no agent owns `com.relavoi.Agent`.
    package var health: String?
    package var since: Date?
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
            case "Calls": calls = CallsReading.calls(value)
            default: break
            }
        }
        if health == nil { health = "" }
    }

    /// Ringing, live and just-ended calls (what the agent shows as banners).
    package var inProgress: [CallsReading.Call] { calls.filter { $0.phase != "missed" } }
    package var missed: [CallsReading.Call] { calls.filter { $0.phase == "missed" } }
}
