import CGLib
import RelavoiCore

/// Method calls: decode the (already type-checked) arguments, validate them,
/// forward to the `BannerControl`, reply. Every path replies exactly once.
extension ControlService {
    func dispatch(method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        guard let control else {
            g_dbus_method_invocation_return_dbus_error(invocation, AgentBus.errorFailed, "the agent is shutting down")
            return
        }
        do throws(ControlError) {
            let reply = try call(method, parameters, control)
            g_dbus_method_invocation_return_value(invocation, reply)
        } catch {
            g_dbus_method_invocation_return_dbus_error(invocation, error.dbusErrorName, error.message)
        }
        callsChanged()
    }

    /// The reply body (nil: an empty reply).
    private func call(_ method: String, _ args: OpaquePointer, _ control: any BannerControl) throws(ControlError)
        -> OpaquePointer?
    {
        // GDBus checked the signature against the introspection data; check
        // again so that a mismatch here is an error reply, never a crash.
        typealias V = GVariantValues
        switch method {
        case "Start" where V.hasType(args, "(sssb)"):
            let sessionId = try ControlArguments.sessionId(V.string(args, 0))
            let proxyNumber = try ControlArguments.proxyNumber(V.string(args, 1))
            let label = try ControlArguments.label(V.string(args, 2))
            try control.startBanner(
                sessionId: sessionId, proxyNumber: proxyNumber, label: label, verified: V.bool(args, 3))
            return nil
        case "Update" where V.hasType(args, "(sibs)"):
            let sessionId = try ControlArguments.sessionId(V.string(args, 0))
            let elapsed = try ControlArguments.elapsedSeconds(V.int32(args, 1))
            let label = try ControlArguments.label(V.string(args, 3))
            try control.updateBanner(
                sessionId: sessionId, elapsedSeconds: elapsed, verified: V.bool(args, 2), label: label)
            return nil
        case "End" where V.hasType(args, "(ssx)"):
            let sessionId = try ControlArguments.sessionId(V.string(args, 0))
            let policy = try ControlArguments.policy(V.string(args, 1), afterUnixSeconds: V.int64(args, 2), now: now())
            try control.endBanner(sessionId: sessionId, policy: policy)
            return nil
        case "Dismiss" where V.hasType(args, "(s)"):
            try control.dismissBanner(sessionId: try ControlArguments.sessionId(V.string(args, 0)))
            return nil
        case "Open" where V.hasType(args, "(s)"):
            try control.openCall(sessionId: try ControlArguments.sessionId(V.string(args, 0)))
            return nil
        case "List" where V.hasType(args, "()"):
            return V.tuple([V.array(of: "(sssbis)", control.listBanners().map(Self.row))])
        case "Diagnostics" where V.hasType(args, "()"):
            let entries = control.diagnostics().map { figure in
                g_variant_new_dict_entry(g_variant_new_string(figure.name), g_variant_new_int64(gint64(figure.value)))!
            }
            return V.tuple([V.array(of: "{sx}", entries)])
        default:
            throw .invalidArgument("no method \(method) with this signature")
        }
    }

    private static func row(_ listing: BannerListing) -> OpaquePointer {
        GVariantValues.tuple([
            g_variant_new_string(listing.sessionId),
            g_variant_new_string(listing.proxyNumber),
            g_variant_new_string(listing.label),
            g_variant_new_boolean(listing.verified ? 1 : 0),
            g_variant_new_int32(Int32(clamping: listing.elapsedSeconds)),
            g_variant_new_string(listing.phase.rawValue),
        ])
    }
}
