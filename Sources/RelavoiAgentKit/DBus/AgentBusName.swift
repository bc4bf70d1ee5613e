import CGLib
import RelavoiGLib

/// One agent per session: owns `com.relavoi.Agent` without queueing.
///
/// Export the `ControlService` first, then acquire the name, so a caller
/// that D-Bus activation started the agent for finds the object as soon as
/// the name appears. The name is owned with `ALLOW_REPLACEMENT`: a second
/// agent started with `replace: true` takes it over, and this one hears
/// `onLost(.replaced)` and should exit.
@MainActor
public final class AgentBusName {
    public enum Outcome {
        /// This process owns the name; keep the returned owner alive.
        case acquired(AgentBusName)
        /// Another process owns the name.
        case alreadyRunning
        /// The bus refused, closed or did not answer in time.
        case noBus(String)
    }

    public enum LossReason: Equatable, Sendable {
        /// Another process took the name (it asked to replace this agent).
        case replaced
        /// The connection to the bus closed.
        case busClosed
    }

    /// GDBus's callbacks land here; retained by the ownership, released by its destroy notify.
    private final class State {
        let connection: BusConnection
        init(connection: BusConnection) { self.connection = connection }
        var acquired = false
        var answered = false
        var lostBeforeAnswer: LossReason?
        var onLost: (@MainActor (LossReason) -> Void)?
    }

    public let name: String
    private var ownerID: guint
    private let state: State

    private init(name: String, ownerID: guint, state: State) {
        self.name = name
        self.ownerID = ownerID
        self.state = state
    }

    isolated deinit { release() }

    /// Asks the bus for `name`, turning the default main context until the
    /// bus answers or `timeout` seconds pass. Call on the main thread, not
    /// from inside a callback that must return quickly. `onLost` runs at most
    /// once, on the main loop, if the name is lost after it was acquired.
    ///
    /// Sets the connection not to exit the process when it closes, so that
    /// losing the bus reaches `onLost(.busClosed)` instead.
    public static func acquire(
        on connection: BusConnection, name: String = AgentBus.name, replace: Bool = false, timeout: Double = 10,
        onLost: @escaping @MainActor (LossReason) -> Void
    ) -> Outcome {
        guard !connection.isClosed else { return .noBus("the connection to the session bus is closed") }
        g_dbus_connection_set_exit_on_close(connection.pointer, 0)
        let state = State(connection: connection)
        var flags = G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE.rawValue | G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT.rawValue
        if replace { flags |= G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue }

        let acquiredCallback: GBusNameAcquiredCallback = { _, _, data in
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
                state.acquired = true
                state.answered = true
            }
        }
        let lostCallback: GBusNameLostCallback = { connection, _, data in
            let passedNoConnection = connection == nil
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let state = Unmanaged<State>.fromOpaque(data!).takeUnretainedValue()
                // GDBus passes NULL when the connection closed, but a call it
                // had queued may still carry the (closed) connection.
                let reason: LossReason = passedNoConnection || state.connection.isClosed ? .busClosed : .replaced
                if !state.answered {
                    state.answered = true
                    state.lostBeforeAnswer = reason
                } else if state.acquired {
                    state.acquired = false
                    let onLost = state.onLost
                    state.onLost = nil
                    onLost?(reason)
                }
            }
        }
        let destroy: GDestroyNotify = { data in Unmanaged<State>.fromOpaque(data!).release() }
        let id = g_bus_own_name_on_connection(
            connection.pointer, name, GBusNameOwnerFlags(rawValue: flags), acquiredCallback, lostCallback,
            Unmanaged.passRetained(state).toOpaque(), destroy)

        let answered = MainLoop.iterate(timeout: timeout) { state.answered }
        guard answered, state.acquired else {
            g_bus_unown_name(id)
            if !answered { return .noBus("the session bus did not answer within \(Int(timeout)) s") }
            if state.lostBeforeAnswer == .busClosed || connection.isClosed {
                return .noBus("the connection to the session bus closed")
            }
            // Lost at once: another process owns it, or the bus refused to give it.
            return hasOwner(name, on: connection) ? .alreadyRunning : .noBus("the session bus refused the name \(name)")
        }
        state.onLost = onLost
        return .acquired(AgentBusName(name: name, ownerID: id, state: state))
    }

    private static func hasOwner(_ name: String, on connection: BusConnection) -> Bool {
        let reply = GVariantValues.withType("(b)") { type in
            g_dbus_connection_call_sync(
                connection.pointer, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", GVariantValues.tuple([g_variant_new_string(name)]), type, G_DBUS_CALL_FLAGS_NONE,
                5000, nil, nil)
        }
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        return GVariantValues.bool(reply, 0)
    }

    /// Whether this process still owns the name.
    public var isOwned: Bool { ownerID != 0 && state.acquired }

    /// Gives the name back (idempotent); `onLost` is not called.
    public func release() {
        guard ownerID != 0 else { return }
        state.onLost = nil
        state.acquired = false
        g_bus_unown_name(ownerID)
        ownerID = 0
    }
}
