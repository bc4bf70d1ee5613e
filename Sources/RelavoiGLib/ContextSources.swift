import CGLib

/// How many GLib sources (timeouts, idles, fd watches) are attached to a
/// main context now: a leaked timer or watch shows as a count that grows.
public enum ContextSources {
    /// Live sources of `context` (nil: the default context). Thread-safe
    /// (GLib locks the context). Costs one hash lookup per source id handed
    /// out so far, so it is for diagnostics, not for a hot path.
    public static func liveCount(in context: OpaquePointer?) -> Int {
        // A context hands out source ids in increasing order: a probe's id bounds them.
        let probe = g_idle_source_new()!
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
