import CGLib
import Dispatch
import FoundationEssentials
import Glibc
import RelavoiGLib

/// Small pieces shared by the session watchers' GLib callbacks.
enum GLibCallbacks {
    /// Runs `body` on the main actor: at once when called on the main thread,
    /// else queued on it. GObject signals are emitted in the context the
    /// object was made in, and a shared bus connection may have been made on
    /// the presenter thread.
    static func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Threads.isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
        }
    }

    /// `g_signal_connect` (a macro in C). The context is retained until the
    /// handler is disconnected or the instance finalized.
    static func connect<Context: AnyObject>(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: GCallback, context: Context
    ) -> gulong {
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        let data = Unmanaged.passRetained(context as AnyObject).toOpaque()
        return g_signal_connect_data(instance, signal, handler, data, release, GConnectFlags(rawValue: 0))
    }
}

/// `g_bus_get`, asynchronously, for a watcher that follows one connection.
@MainActor
enum AsyncBus {
    private final class Completion {
        let done: @MainActor (OpaquePointer?, String) -> Void
        init(_ done: @escaping @MainActor (OpaquePointer?, String) -> Void) { self.done = done }
    }

    /// `attach` runs on the main loop with the connection (a reference the
    /// watcher then owns) unless the watcher is gone or `isAttached` by then;
    /// no bus is one log line, `consequence` saying what is not followed.
    static func get<Watcher: AnyObject>(
        _ type: GBusType, cancellable: UnsafeMutablePointer<GCancellable>?, for watcher: Watcher,
        isAttached: @escaping @MainActor (Watcher) -> Bool, consequence: String,
        attach: @escaping @MainActor (Watcher, OpaquePointer) -> Void
    ) {
        get(type, cancellable: cancellable) { [weak watcher] connection, error in
            guard let connection else {
                let bus = type == G_BUS_TYPE_SYSTEM ? "system" : "session"
                Log.info("no \(bus) bus (\(error)): \(consequence)")
                return
            }
            guard let watcher, !isAttached(watcher) else {
                g_object_unref(UnsafeMutableRawPointer(connection))
                return
            }
            attach(watcher, connection)
        }
    }

    /// The completion runs on the main loop with a connection reference the
    /// caller owns, or nil and the reason.
    private static func get(
        _ type: GBusType, cancellable: UnsafeMutablePointer<GCancellable>?,
        _ done: @escaping @MainActor (OpaquePointer?, String) -> Void
    ) {
        let callback: GAsyncReadyCallback = { _, result, data in
            nonisolated(unsafe) let result = result
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated {
                let completion = Unmanaged<Completion>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let connection = g_bus_get_finish(result, &error)
                completion.done(connection, connection == nil ? GErrorText.take(error) : "")
            }
        }
        g_bus_get(type, cancellable, callback, Unmanaged.passRetained(Completion(done)).toOpaque())
    }
}
