import RelavoiAgentKit
import RelavoiDBus

/// The agent's own figures (`Diagnostics()` on com.relavoi.Agent1): what
/// /proc cannot show, malloc's bytes in use and the GLib sources per context.
@MainActor
enum AgentFigures {
    /// One connection to the soak's session bus for the whole run.
    private static let bus = try? BusConnection.session()

    /// nil when the agent does not answer.
    static func fetch() -> [String: Int64]? {
        guard let bus, let figures = ControlClient.diagnostics(on: bus) else { return nil }
        return Dictionary(figures.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
