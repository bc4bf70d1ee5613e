import CGLib

/// Threads without Foundation: the agent links no ICU (its lock: `Lock`).
public enum Threads {
    /// Whether this is the process's main thread (the one GLib's default loop runs on).
    public static var isMainThread: Bool { relavoi_is_main_thread() != 0 }

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new, detached, named thread (GLib's, so the name shows in `top -H`).
    /// Linux takes at most 15 bytes (GLib 2.74 drops a longer name): `name` is cut to that.
    public static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
        let name = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let entry: GThreadFunc = { data in
            let body = Unmanaged<Body>.fromOpaque(data!).takeRetainedValue()
            body.run()
            return nil
        }
        g_thread_unref(g_thread_new(name, entry, context))
    }
}
