import CGLib
import RelavoiGLib

/// `g_bus_get`, asynchronously, for a watch that follows one connection.
@MainActor
enum AsyncBus {
    private final class Completion {
        let done: @MainActor (OpaquePointer?, String) -> Void
        init(_ done: @escaping @MainActor (OpaquePointer?, String) -> Void) { self.done = done }
    }

    /// `attach` runs on the main loop with the connection (a reference the
    /// watch then owns) unless the watch is gone or `isAttached` by then;
    /// no bus is one log line, `consequence` saying what is not followed.
    static func get<Watch: AnyObject>(
        _ type: GBusType, cancellable: UnsafeMutablePointer<GCancellable>?, for watch: Watch,
        isAttached: @escaping @MainActor (Watch) -> Bool, consequence: String,
        attach: @escaping @MainActor (Watch, OpaquePointer) -> Void
    ) {
        get(type, cancellable: cancellable) { [weak watch] connection, error in
            guard let connection else {
                let bus = type == G_BUS_TYPE_SYSTEM ? "system" : "session"
                Log.info("no \(bus) bus (\(error)): \(consequence)")
                return
            }
            guard let watch, !isAttached(watch) else {
                g_object_unref(UnsafeMutableRawPointer(connection))
                return
            }
            attach(watch, connection)
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
