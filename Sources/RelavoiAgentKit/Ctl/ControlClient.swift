import CGLib
import FoundationEssentials
import Glibc
import RelavoiI18n

/// `relavoi-agent ctl start|update|end|list|status`: one synchronous D-Bus
/// call (or two, for `status`) to the agent's `com.relavoi.Agent1`. D-Bus may
/// start the agent (activation). Never call this on the thread whose GLib
/// loop serves the agent in the same process: a synchronous call to yourself
/// waits for the timeout.
public enum ControlClient {
    public static let exitOK: Int32 = 0
    public static let exitRemoteError: Int32 = 1
    public static let exitUsage: Int32 = 2
    /// Long enough for D-Bus activation to start the agent.
    static let callTimeoutMilliseconds: Int32 = 30_000

    /// Runs `ctl` with the words after `ctl`; returns the exit status.
    public static func run(_ args: [String]) -> Int32 { run(args, output: .standard) }

    public static func run(_ args: [String], output: ControlOutput) -> Int32 {
        let command: ControlCommand
        switch ControlCommand.parse(args) {
        case .help:
            output.out(ControlCommand.usage)
            return exitOK
        case .usageError(let message):
            output.err("relavoi-agent ctl: \(message)")
            output.err(L("Try '%s --help'.", "relavoi-agent ctl"))
            return exitUsage
        case .run(let parsed):
            command = parsed
        }
        let bus: BusConnection
        do {
            bus = try BusConnection.session()
        } catch {
            output.err("relavoi-agent ctl: \(error.description)")
            return exitRemoteError
        }
        do {
            try perform(command, on: bus, output: output)
            return exitOK
        } catch {
            output.err("relavoi-agent ctl: \(error.description)")
            return exitRemoteError
        }
    }

    private static func perform(_ command: ControlCommand, on bus: BusConnection, output: ControlOutput)
        throws(CallError)
    {
        typealias V = GVariantValues
        switch command {
        case .start(let sessionId, let proxyNumber, let label, let verified):
            try call(
                bus, "Start",
                V.tuple([
                    g_variant_new_string(sessionId), g_variant_new_string(proxyNumber), g_variant_new_string(label),
                    g_variant_new_boolean(verified ? 1 : 0),
                ]), reply: "()")
        case .update(let sessionId, let elapsed, let label, let verified):
            try call(
                bus, "Update",
                V.tuple([
                    g_variant_new_string(sessionId), g_variant_new_int32(elapsed),
                    g_variant_new_boolean(verified ? 1 : 0), g_variant_new_string(label),
                ]), reply: "()")
        case .end(let sessionId, let policy):
            let (name, after) = wire(policy, now: Date())
            try call(
                bus, "End",
                V.tuple([
                    g_variant_new_string(sessionId), g_variant_new_string(name), g_variant_new_int64(gint64(after)),
                ]),
                reply: "()")
        case .dismiss(let sessionId):
            try call(bus, "Dismiss", V.tuple([g_variant_new_string(sessionId)]), reply: "()")
        case .list:
            let now = Date()
            for listing in try calls(bus) { output.out(ControlReport.line(listing, now: now)) }
        case .status:
            let connected = try connectedProperty(bus)
            let count = try calls(bus).count
            output.out(ControlReport.status(connected: connected, bannerCount: count))
        case .diagnostics:
            for figure in try diagnostics(bus) { output.out("\(TerminalText.safe(figure.name))\t\(figure.value)") }
        }
    }

    /// The policy as `End` takes it: a name and an absolute Unix time for "after".
    static func wire(_ policy: ControlCommand.EndPolicy, now: Date) -> (String, Int64) {
        switch policy {
        case .immediate: return ("immediate", 0)
        case .default: return ("default", 0)
        case .afterSeconds(let seconds):
            let (sum, overflow) = Int64(now.timeIntervalSince1970.rounded(.up)).addingReportingOverflow(seconds)
            return ("after", overflow ? Int64.max : sum)
        }
    }

    private static func diagnostics(_ bus: BusConnection) throws(CallError) -> [(name: String, value: Int64)] {
        let reply = try call(bus, "Diagnostics", nil, reply: AgentBus.diagnosticsSignature)
        defer { g_variant_unref(reply) }
        return AgentDiagnosticsReply.figures(reply)
    }

    /// The running agent's `Diagnostics()` figures; nil if it does not answer
    /// (for the soak, which samples them while it drives the agent).
    public static func diagnostics(on bus: BusConnection) -> [(name: String, value: Int64)]? {
        try? diagnostics(bus)
    }

    /// The agent's `Calls` property, read as the panels read it.
    private static func calls(_ bus: BusConnection) throws(CallError) -> [CallsReading.Call] {
        let value = try property(bus, "Calls", type: CallsProperty.signature)
        defer { g_variant_unref(value) }
        return CallsReading.calls(value)
    }

    private static func connectedProperty(_ bus: BusConnection) throws(CallError) -> Bool {
        let value = try property(bus, "Connected", type: "b")
        defer { g_variant_unref(value) }
        return g_variant_get_boolean(value) != 0
    }

    /// One property of the agent's interface, checked to be of `type`; owned by the caller.
    private static func property(_ bus: BusConnection, _ name: String, type: String) throws(CallError)
        -> OpaquePointer
    {
        let reply = try call(
            bus, "Get", GVariantValues.tuple([g_variant_new_string(AgentBus.interface), g_variant_new_string(name)]),
            reply: "(v)", interface: "org.freedesktop.DBus.Properties")
        defer { g_variant_unref(reply) }
        let boxed = GVariantValues.child(reply, 0)
        defer { g_variant_unref(boxed) }
        let value = g_variant_get_variant(boxed)!
        guard GVariantValues.hasType(value, type) else {
            g_variant_unref(value)
            throw CallError(name: nil, message: "the agent's \(name) property is not of type \(type)")
        }
        return value
    }

    /// A synchronous call to the agent; the reply (owned by the caller) has type `reply`.
    @discardableResult
    private static func call(
        _ bus: BusConnection, _ method: String, _ parameters: OpaquePointer?, reply: String,
        interface: String = AgentBus.interface
    ) throws(CallError) -> OpaquePointer {
        var error: UnsafeMutablePointer<GError>?
        let result = GVariantValues.withType(reply) { type in
            g_dbus_connection_call_sync(
                bus.pointer, AgentBus.name, AgentBus.objectPath, interface, method, parameters, type,
                G_DBUS_CALL_FLAGS_NONE, callTimeoutMilliseconds, nil, &error)
        }
        guard let result else { throw CallError(taking: error) }
        return result
    }
}
