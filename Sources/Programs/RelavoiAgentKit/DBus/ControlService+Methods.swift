import RelavoiClient
import RelavoiCore
import RelavoiDBus

/// Method calls: decode the (already type-checked) arguments, validate them,
/// forward to the `BannerControl`, reply. Every path replies exactly once.
extension ControlService {
    func dispatch(_ call: DBusMethodCall) {
        guard let control else {
            call.fail(AgentBus.errorFailed, "the agent is shutting down")
            return
        }
        do throws(ControlError) {
            call.reply(try reply(to: call, control))
        } catch {
            call.fail(error.dbusErrorName, error.message)
        }
        // Only these change calls; List, Status, Diagnostics and Open only read them. The
        // agent's CallDriver also says so through onCallsChanged (announcing twice is a no-op:
        // callsChanged compares with what was announced); this covers any BannerControl.
        if ["Start", "Update", "End", "Dismiss"].contains(call.method) { callsChanged() }
    }

    /// The reply's values (none: an empty reply).
    private func reply(to call: DBusMethodCall, _ control: any BannerControl) throws(ControlError) -> [DBusValue] {
        // GDBus checked the signature against the introspection data; check
        // again so that a mismatch here is an error reply, never a crash.
        let a = call.arguments
        func string(_ index: Int) -> String { a[index].stringValue ?? "" }
        switch call.method {
        case "Start" where call.signature == "(sssb)":
            let sessionId = try ControlArguments.sessionId(string(0))
            let proxyNumber = try ControlArguments.proxyNumber(string(1))
            let label = try ControlArguments.label(string(2))
            try control.startBanner(
                sessionId: sessionId, proxyNumber: proxyNumber, label: label, verified: a[3].boolValue ?? false)
            return []
        case "Update" where call.signature == "(sibs)":
            let sessionId = try ControlArguments.sessionId(string(0))
            let elapsed = try ControlArguments.elapsedSeconds(a[1].int32Value ?? 0)
            let label = try ControlArguments.label(string(3))
            try control.updateBanner(
                sessionId: sessionId, elapsedSeconds: elapsed, verified: a[2].boolValue ?? false, label: label)
            return []
        case "End" where call.signature == "(ssx)":
            let sessionId = try ControlArguments.sessionId(string(0))
            let policy = try ControlArguments.policy(string(1), afterUnixSeconds: a[2].int64Value ?? 0, now: now())
            try control.endBanner(sessionId: sessionId, policy: policy)
            return []
        case "Dismiss" where call.signature == "(s)":
            try control.dismissBanner(sessionId: try ControlArguments.sessionId(string(0)))
            return []
        case "Open" where call.signature == "(s)":
            try control.openCall(sessionId: try ControlArguments.sessionId(string(0)))
            return []
        case "List" where call.signature == "()":
            return [.array(elementSignature: "(sssbis)", control.listBanners().map(Self.row))]
        case "Diagnostics" where call.signature == "()":
            return [AgentDiagnosticsReply.value(control.diagnostics())]
        case "ShowingCalls" where call.signature == "(b)":
            onShowingCalls?(call.sender, a[0].boolValue ?? false)
            return []
        default:
            throw .invalidArgument("no method \(call.method) with this signature")
        }
    }

    private static func row(_ listing: BannerListing) -> DBusValue {
        .tuple([
            .string(listing.sessionId), .string(listing.proxyNumber), .string(listing.label), .bool(listing.verified),
            .int32(Int32(clamping: listing.elapsedSeconds)), .string(listing.phase.rawValue),
        ])
    }
}
