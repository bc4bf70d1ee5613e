import CGLib
import FoundationEssentials
import Glibc
import RelavoiDBus
import RelavoiGLib

/// logind on the system bus (`org.freedesktop.login1.Manager`): reports
/// `PrepareForSleep` and holds a sleep "delay" inhibitor, so the stream can
/// close cleanly before the machine sleeps (logind waits for the lock up to
/// its `InhibitDelayMaxSec`, 5 s by default).
///
/// Everything is asynchronous on the main loop: the bus connection, the
/// signal subscription, the name watch and the `Inhibit` call.
@MainActor
public final class LogindWatch {
    public enum Event: Equatable, Sendable {
        /// logind owns its name (at start or after a restart).
        case appeared
        /// `PrepareForSleep(true)` before sleep, `(false)` after resume.
        case prepareForSleep(Bool)
    }

    public static let busName = "org.freedesktop.login1"
    public static let objectPath = "/org/freedesktop/login1"
    public static let interface = "org.freedesktop.login1.Manager"

    /// Carries the watch through GDBus's `user_data` without keeping it alive.
    private final class Handle {
        weak var watch: LogindWatch?
        init(_ watch: LogindWatch) { self.watch = watch }
    }

    private let onEvent: @MainActor (Event) -> Void
    private let cancellable = g_cancellable_new()
    private var connection: BusConnection?
    private var subscriptionID: guint = 0
    private var nameWatch: BusNameWatch?
    private var present = false
    private var lockWanted = false
    private var lockPending = false
    private var lockFD: Int32 = -1
    private var warnedLockRefused = false

    public init(onEvent: @escaping @MainActor (Event) -> Void) {
        self.onEvent = onEvent
    }

    isolated deinit { stop() }

    public func start() {
        guard connection == nil else { return }
        AsyncBus.get(
            G_BUS_TYPE_SYSTEM, cancellable: cancellable, for: self, isAttached: { $0.connection != nil },
            consequence: "sleep and resume are not followed"
        ) { watch, connection in
            // The shared connection must not end the agent when the system bus goes away.
            g_dbus_connection_set_exit_on_close(connection, 0)
            let bus = BusConnection.adopting(connection)
            watch.connection = bus
            watch.subscribe(connection)
            watch.nameWatch = BusNameWatch(connection: bus, name: Self.busName) { [weak watch] owner in
                if owner == nil { watch?.nameVanished() } else { watch?.nameAppeared() }
            }
        }
    }

    public func stop() {
        g_cancellable_cancel(cancellable)
        releaseLock()
        if let connection, subscriptionID != 0 {
            g_dbus_connection_signal_unsubscribe(connection.pointer, subscriptionID)
        }
        nameWatch?.stop()
        subscriptionID = 0
        nameWatch = nil
        connection = nil
        present = false
    }

    // MARK: The sleep lock

    /// Asks logind for a sleep delay lock (once; kept until `releaseLock`).
    public func takeLock() {
        lockWanted = true
        guard let connection, present, lockFD < 0, !lockPending else { return }
        lockPending = true
        let parameters = GVariantValues.tuple([
            g_variant_new_string("sleep"), g_variant_new_string("Relavoi"),
            g_variant_new_string("Close the call stream before the system sleeps"), g_variant_new_string("delay"),
        ])
        let callback: GAsyncReadyCallback = { source, result, data in
            nonisolated(unsafe) let source = source
            nonisolated(unsafe) let result = result
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeRetainedValue()
                var fdList: UnsafeMutablePointer<GUnixFDList>?
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_with_unix_fd_list_finish(
                    OpaquePointer(source), &fdList, result, &error)
                var fd: Int32 = -1
                var failure: String?
                if let reply {
                    let handleValue = GVariantValues.child(reply, 0)
                    let index = g_variant_get_handle(handleValue)
                    g_variant_unref(handleValue)
                    if let fdList {
                        fd = g_unix_fd_list_get(fdList, index, &error)
                        if fd < 0 { failure = GErrorText.take(error) }
                    } else {
                        failure = "no file descriptor in the reply"
                    }
                    g_variant_unref(reply)
                } else {
                    failure = GErrorText.take(error)
                }
                if let fdList { g_object_unref(UnsafeMutableRawPointer(fdList)) }
                guard let watch = handle.watch else {
                    if fd >= 0 { close(fd) }
                    return
                }
                watch.lockAnswered(fd: fd, failure: failure)
            }
        }
        let handle = Unmanaged.passRetained(Handle(self)).toOpaque()
        GVariantValues.withType("(h)") { replyType in
            g_dbus_connection_call_with_unix_fd_list(
                connection.pointer, Self.busName, Self.objectPath, Self.interface, "Inhibit", parameters, replyType,
                G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, cancellable, callback, handle)
        }
    }

    /// Lets go of the lock (the sleep may go ahead).
    public func releaseLock() {
        lockWanted = false
        guard lockFD >= 0 else { return }
        close(lockFD)
        lockFD = -1
        Log.debug("logind: sleep lock released")
    }

    private func lockAnswered(fd: Int32, failure: String?) {
        lockPending = false
        if let failure {
            // Without the lock the stream may not close before sleep; resume still reconnects.
            if !warnedLockRefused && g_cancellable_is_cancelled(cancellable) == 0 {
                warnedLockRefused = true
                Log.info("logind refused a sleep delay lock (\(failure)); the stream is closed only if time allows")
            }
            return
        }
        guard lockWanted, present else {
            close(fd)
            return
        }
        lockFD = fd
        Log.debug("logind: sleep lock held")
    }

    // MARK: The signal and the name

    private func subscribe(_ connection: OpaquePointer) {
        let callback: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
            nonisolated(unsafe) let parameters = parameters
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let handle = Unmanaged<Handle>.fromOpaque(data!).takeUnretainedValue()
                guard let parameters, GVariantValues.hasType(parameters, "(b)") else { return }
                handle.watch?.onEvent(.prepareForSleep(GVariantValues.bool(parameters, 0)))
            }
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Handle>.fromOpaque(data!).release() }
        subscriptionID = g_dbus_connection_signal_subscribe(
            connection, Self.busName, Self.interface, "PrepareForSleep", Self.objectPath, nil,
            G_DBUS_SIGNAL_FLAGS_NONE, callback, Unmanaged.passRetained(Handle(self)).toOpaque(), destroy)
    }

    private func nameAppeared() {
        guard !present else { return }
        present = true
        Log.debug("logind is on the system bus: following sleep and resume")
        onEvent(.appeared)
    }

    private func nameVanished() {
        guard present else { return }
        present = false
        // A new logind knows nothing of the old lock.
        let wanted = lockWanted
        releaseLock()
        lockWanted = wanted
    }
}
