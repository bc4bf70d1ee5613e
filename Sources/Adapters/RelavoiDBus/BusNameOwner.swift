import CGLib
import RelavoiGLib

/// One process per name: owns a well-known name without queueing.
///
/// Export the objects first, then acquire the name, so a caller that D-Bus
/// activation started the process for finds them as soon as the name
/// appears. The name is owned with `ALLOW_REPLACEMENT`: a second process
/// asking with `replace: true` takes it over, and this one hears
/// `onLost(.replaced)`.
@MainActor
public final class BusNameOwner {
    public enum Outcome {
        /// This process owns the name; keep the returned owner alive.
        case acquired(BusNameOwner)
        /// Another process owns the name.
        case alreadyRunning
        /// The bus refused, closed or did not answer in time.
        case noBus(String)
    }

    public enum LossReason: Equatable, Sendable {
        /// Another process took the name (it asked to replace this one).
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
        on connection: BusConnection, name: String, replace: Bool = false, timeout: Double = 10,
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
            return connection.nameHasOwner(name) ? .alreadyRunning : .noBus("the session bus refused the name \(name)")
        }
        state.onLost = onLost
        return .acquired(BusNameOwner(name: name, ownerID: id, state: state))
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
