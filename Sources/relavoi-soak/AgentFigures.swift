import CGLib
import RelavoiAgentKit

/// The agent's own figures (`Diagnostics()` on com.relavoi.Agent1): what
/// /proc cannot show, malloc's bytes in use and the GLib sources per context.
enum AgentFigures {
    /// nil when the agent does not answer within 2 s.
    static func fetch() -> [String: Int64]? {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let type = g_variant_type_new(AgentBus.diagnosticsSignature)
        defer { g_variant_type_free(type) }
        guard
            let reply = g_dbus_connection_call_sync(
                bus, AgentBus.name, AgentBus.objectPath, AgentBus.interface, "Diagnostics", nil, type,
                G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, nil)
        else { return nil }
        defer { g_variant_unref(reply) }
        return Dictionary(
            AgentDiagnosticsReply.figures(reply).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
