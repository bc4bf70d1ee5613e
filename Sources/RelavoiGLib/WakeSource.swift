import CGLib

/// A source that stays attached to a context and runs `body` there whenever
/// any thread calls `wake`: no new idle source per wake-up (an allocation,
/// an attach and a destroy each time), only GLib's ready time and the
/// context's wake-up. Wakes that come before `body` has run fold into one.
public final class WakeSource: @unchecked Sendable {
    private let source: UnsafeMutablePointer<GSource>

    /// Attaches to `context`; `body` runs on the thread that iterates it.
    public init(context: OpaquePointer, _ body: @escaping () -> Void) {
        source = g_source_new(Self.functions, guint(MemoryLayout<GSource>.size))
        let run: GSourceFunc = { data in
            Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue().body()
            return gboolean(1)
        }
        let release: GDestroyNotify = { data in Unmanaged<Box>.fromOpaque(data!).release() }
        g_source_set_callback(source, run, Unmanaged.passRetained(Box(body)).toOpaque(), release)
        g_source_attach(source, context)
    }

    /// From any thread: `body` runs at the context's next iteration.
    public func wake() { g_source_set_ready_time(source, 0) }

    /// Detaches the source (from the thread that iterates its context).
    public func cancel() { g_source_destroy(source) }

    deinit {
        g_source_destroy(source)
        g_source_unref(source)
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Only `dispatch`: a source with no `prepare` or `check` is ready by its
    /// ready time alone, which dispatch sets back to never.
    nonisolated(unsafe) private static let functions: UnsafeMutablePointer<GSourceFuncs> = {
        let functions = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
        functions.initialize(
            to: GSourceFuncs(
                prepare: nil, check: nil,
                dispatch: { source, callback, data in
                    g_source_set_ready_time(source, -1)
                    return callback?(data) ?? gboolean(0)
                }, finalize: nil, closure_callback: nil, closure_marshal: nil))
        return functions
    }()
}
