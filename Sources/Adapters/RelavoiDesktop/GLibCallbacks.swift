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
    /// the delivery thread.
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
