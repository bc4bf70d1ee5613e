import CAdw
import RelavoiGLib

/// A Swift closure behind a GObject signal: the closure travels as the handler's user
/// data (retained) and is released by GLib when the handler goes with its object.
@MainActor
final class SignalClosure {
    let run: @MainActor (UnsafeMutableRawPointer?) -> Void
    init(_ run: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) { self.run = run }

    /// `(instance, user_data)` signals: clicked, changed, activate, entry-activated.
    static func connectPlain(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ run: @escaping @MainActor () -> Void
    ) {
        let callback: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            nonisolated(unsafe) let data = data
            MainActor.assumeIsolated { Unmanaged<SignalClosure>.fromOpaque(data!).takeUnretainedValue().run(nil) }
        }
        connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), SignalClosure { _ in run() })
    }

    /// `(instance, argument, user_data)` signals: notify::property, response.
    static func connectWithArgument(
        _ instance: UnsafeMutableRawPointer, _ signal: String,
        _ run: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) {
        let callback: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            nonisolated(unsafe) let data = data
            nonisolated(unsafe) let argument = argument
            MainActor.assumeIsolated {
                Unmanaged<SignalClosure>.fromOpaque(data!).takeUnretainedValue().run(argument)
            }
        }
        connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), SignalClosure(run))
    }

    private static func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ callback: GCallback, _ closure: SignalClosure
    ) {
        let release: GClosureNotify = { data, _ in Unmanaged<SignalClosure>.fromOpaque(data!).release() }
        g_signal_connect_data(
            instance, signal, callback, Unmanaged.passRetained(closure).toOpaque(), release, GConnectFlags(0))
    }
}
