import CGLib

/// A GLib timeout on the thread-default main context. The closure runs on
/// the thread that owns that context; the source is removed by `cancel()` or,
/// for one-shot timers, after it fired.
public final class GLibTimer: @unchecked Sendable {
    /// Seconds on GLib's monotonic clock, the one its timers run on.
    package static func now() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

    private final class Box {
        let fire: () -> Bool
        init(_ fire: @escaping () -> Bool) { self.fire = fire }
    }

    private var sourceID: guint = 0
    private let context: OpaquePointer?

    private init(context: OpaquePointer?) { self.context = context }

    /// Fires once after `seconds` (millisecond resolution).
    @discardableResult
    public static func once(after seconds: Double, _ body: @escaping () -> Void) -> GLibTimer {
        let timer = GLibTimer(context: g_main_context_get_thread_default())
        timer.schedule(milliseconds: max(0, seconds * 1000)) {
            timer.sourceID = 0
            body()
            return false
        }
        return timer
    }

    /// Fires every `seconds` until cancelled.
    public static func repeating(every seconds: Double, _ body: @escaping () -> Void) -> GLibTimer {
        let timer = GLibTimer(context: g_main_context_get_thread_default())
        timer.schedule(milliseconds: max(1, seconds * 1000)) {
            body()
            return true
        }
        return timer
    }

    private func schedule(milliseconds: Double, _ fire: @escaping () -> Bool) {
        let source = g_timeout_source_new(guint(milliseconds.rounded(.up)))!
        let box = Unmanaged.passRetained(Box(fire)).toOpaque()
        let callback: GSourceFunc = { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            return box.fire() ? gboolean(1) : gboolean(0)
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Box>.fromOpaque(data!).release() }
        g_source_set_callback(source, callback, box, destroy)
        sourceID = g_source_attach(source, context)
        g_source_unref(source)
    }

    public var isActive: Bool { sourceID != 0 }

    public func cancel() {
        guard sourceID != 0 else { return }
        if let source = g_main_context_find_source_by_id(context, sourceID) {
            g_source_destroy(source)
        }
        sourceID = 0
    }
}
