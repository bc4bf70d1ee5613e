import RelavoiClient
import RelavoiDBus

/// `Diagnostics()`'s reply, `(a{sx})`: built by the service, read by `ctl
/// diagnostics`, the soak and tests.
public enum AgentDiagnosticsReply {
    /// The reply's one value, `a{sx}`, in the agent's order.
    static func value(_ figures: [(name: String, value: Int64)]) -> DBusValue {
        .array(elementSignature: "{sx}", figures.map { .dictEntry(.string($0.name), .int64($0.value)) })
    }

    /// The figures in the agent's order; empty if `reply` has another type.
    public static func figures(_ reply: DBusValue) -> [(name: String, value: Int64)] {
        guard reply.signature == AgentBus.diagnosticsSignature, let entries = reply.children?.first?.children else {
            return []
        }
        return entries.compactMap { entry in
            guard case .dictEntry(.string(let name), .int64(let value)) = entry else { return nil }
            return (name, value)
        }
    }
}
