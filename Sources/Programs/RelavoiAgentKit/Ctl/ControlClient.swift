import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiDBus
import RelavoiI18n

/// `relavoi-agent ctl start|update|end|list|status`: one synchronous D-Bus
/// call (or three, for `status`) to the agent's `com.relavoi.Agent1`. D-Bus may
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
        switch command {
        case .start(let sessionId, let proxyNumber, let label, let verified):
            try call(bus, "Start", [.string(sessionId), .string(proxyNumber), .string(label), .bool(verified)])
        case .update(let sessionId, let elapsed, let label, let verified):
            try call(bus, "Update", [.string(sessionId), .int32(elapsed), .bool(verified), .string(label)])
        case .end(let sessionId, let policy):
            let (name, after) = wire(policy, now: Date())
            try call(bus, "End", [.string(sessionId), .string(name), .int64(after)])
        case .dismiss(let sessionId):
            try call(bus, "Dismiss", [.string(sessionId)])
        case .list:
            let now = Date()
            for listing in try calls(bus) { output.out(ControlReport.line(listing, now: now)) }
        case .status:
            let connected = try connectedProperty(bus)
            let count = try calls(bus).count
            let health = HealthProperty.reading(try property(bus, "Health", type: HealthProperty.signature))
            output.out(ControlReport.status(connected: connected, bannerCount: count, health: health))
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
        AgentDiagnosticsReply.figures(try call(bus, "Diagnostics", reply: AgentBus.diagnosticsSignature))
    }

    /// The running agent's `Diagnostics()` figures; nil if it does not answer
    /// (for the soak, which samples them while it drives the agent).
    public static func diagnostics(on bus: BusConnection) -> [(name: String, value: Int64)]? {
        try? diagnostics(bus)
    }

    /// The agent's `Calls` property, read as the panels read it.
    private static func calls(_ bus: BusConnection) throws(CallError) -> [CallsReading.Call] {
        CallsReading.calls(try property(bus, "Calls", type: CallsProperty.signature))
    }

    private static func connectedProperty(_ bus: BusConnection) throws(CallError) -> Bool {
        try property(bus, "Connected", type: "b").boolValue ?? false
    }

    /// One property of the agent's interface, checked to be of `type`.
    private static func property(_ bus: BusConnection, _ name: String, type: String) throws(CallError) -> DBusValue {
        let reply = try call(
            bus, "Get", [.string(AgentBus.interface), .string(name)], reply: "(v)",
            interface: "org.freedesktop.DBus.Properties")
        guard case .variant(let value)? = reply.children?.first, value.signature == type else {
            throw CallError(name: nil, message: "the agent's \(name) property is not of type \(type)")
        }
        return value
    }

    /// A synchronous call to the agent; the reply has type `reply`.
    @discardableResult
    private static func call(
        _ bus: BusConnection, _ method: String, _ arguments: [DBusValue] = [], reply: String = "()",
        interface: String = AgentBus.interface
    ) throws(CallError) -> DBusValue {
        do {
            return try bus.call(
                destination: AgentBus.name, path: AgentBus.objectPath, interface: interface, method: method,
                arguments: arguments, replyType: reply, timeoutMilliseconds: callTimeoutMilliseconds)
        } catch {
            throw CallError(error)
        }
    }
}
