import CGLib

/// SIGTERM and SIGINT delivered on the GLib main loop (not in a signal
/// handler), so the handler may do anything.
public enum UnixSignals {
    private final class Box {
        let handler: (Int32) -> Void
        let signal: Int32
        init(signal: Int32, handler: @escaping (Int32) -> Void) {
            self.signal = signal
            self.handler = handler
        }
    }

    /// Calls `handler` with the signal number on each SIGTERM or SIGINT.
    public static func onTerminate(_ handler: @escaping (Int32) -> Void) {
        for signal in [SIGTERM, SIGINT] {
            let box = Unmanaged.passRetained(Box(signal: signal, handler: handler)).toOpaque()
            let callback: GSourceFunc = { data in
                let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
                box.handler(box.signal)
                return gboolean(1)
            }
            let release: GDestroyNotify = { data in Unmanaged<Box>.fromOpaque(data!).release() }
            g_unix_signal_add_full(G_PRIORITY_HIGH, signal, callback, box, release)
        }
    }
}
