import CGLib
import Glibc

/// A source that stays attached to a context and runs `body` there whenever
/// any thread calls `wake`. The wake is one `write` to an eventfd the context
/// polls: no GLib lock (waking through GLib signals the context inside its
/// lock, so the woken thread at once blocks on it, a second wake-up) and no
/// new source per wake. Wakes that come before `body` runs fold into one.
public final class WakeSource: @unchecked Sendable {
    private let eventFD: Int32
    /// The eventfd's source; nil without an eventfd.
    private let source: UnsafeMutablePointer<GSource>?
    private let context: OpaquePointer
    private let body: () -> Void
    /// Set on the context's thread; the fallback's idles check it there.
    private var cancelled = false

    /// Attaches to `context`; `body` runs on the thread that iterates it.
    public init(context: OpaquePointer, _ body: @escaping () -> Void) {
        self.context = context
        self.body = body
        eventFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard eventFD >= 0 else {
            Log.warning("no eventfd (\(String(cString: strerror(errno)))): waking through GLib instead")
            source = nil
            return
        }
        let source = g_unix_fd_source_new(eventFD, G_IO_IN)!
        self.source = source
        let run: GUnixFDSourceFunc = { fd, _, data in
            var count: UInt64 = 0
            _ = read(fd, &count, MemoryLayout<UInt64>.size)
            Unmanaged<WakeSource>.fromOpaque(data!).takeUnretainedValue().body()
            return gboolean(1)
        }
        // Unretained: the source goes in `deinit`, before the object does.
        g_source_set_callback(
            source, unsafeBitCast(run, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
    }

    /// From any thread: `body` runs at the context's next iteration.
    public func wake() {
        guard eventFD >= 0 else { return wakeThroughGLib() }
        var one: UInt64 = 1
        _ = write(eventFD, &one, MemoryLayout<UInt64>.size)
    }

    /// Without an eventfd (the process ran out of descriptors): an idle source
    /// per wake. Always a source, never invoke's direct call: a wake from the
    /// context's own thread (under the caller's lock) must not run `body` now.
    private func wakeThroughGLib() {
        let run: GSourceFunc = { data in
            let wake = Unmanaged<WakeSource>.fromOpaque(data!).takeUnretainedValue()
            if !wake.cancelled { wake.body() }
            return gboolean(0)
        }
        let release: GDestroyNotify = { data in Unmanaged<WakeSource>.fromOpaque(data!).release() }
        let idle = g_idle_source_new()!
        g_source_set_callback(idle, run, Unmanaged.passRetained(self).toOpaque(), release)
        g_source_attach(idle, context)
        g_source_unref(idle)
    }

    /// Detaches the source (from the thread that iterates its context).
    public func cancel() {
        cancelled = true
        if let source { g_source_destroy(source) }
    }

    deinit {
        if let source {
            g_source_destroy(source)
            g_source_unref(source)
        }
        if eventFD >= 0 { close(eventFD) }
    }
}
