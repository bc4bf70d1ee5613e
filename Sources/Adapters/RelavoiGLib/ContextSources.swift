import CGLib

/// How many GLib sources (timeouts, idles, fd watches) are attached to a
/// main context now: a leaked timer or watch shows as a count that grows.
public enum ContextSources {
    /// Live sources of `context` (nil: the default context), from any thread
    /// (GLib locks the context). Costs one hash lookup per source id the
    /// context has handed out, which grows with uptime (millions after months:
    /// tens of ms), so it is for diagnostics, not for a hot path.
    public static func liveCount(in context: OpaquePointer?) -> Int {
        // A context hands out source ids in increasing order: a probe's id bounds
        // them. The probe never becomes ready (a timeout of ~49 days, removed at
        // once), so the thread that runs the context never dispatches it.
        let probe = g_timeout_source_new(guint.max)!
        let noop: GSourceFunc = { _ in gboolean(0) }
        g_source_set_callback(probe, noop, nil, nil)
        let bound = g_source_attach(probe, context)
        g_source_destroy(probe)
        g_source_unref(probe)
        var count = 0
        var id: guint = 1
        while id < bound {
            if g_main_context_find_source_by_id(context, id) != nil { count += 1 }
            id += 1
        }
        return count
    }
}
