import CGLib
import RelavoiGLib

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
