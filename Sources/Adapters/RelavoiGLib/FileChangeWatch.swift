import CGLib

/// Calls `changed` on the main loop whenever the file at `path` is created,
/// written, replaced or deleted (GFileMonitor: inotify on its folder). Events come in bursts (a
/// replace is a delete and a create): the caller re-reads after a short pause.
@MainActor
public final class FileChangeWatch {
    private let monitor: UnsafeMutablePointer<GFileMonitor>
    private let changed: @MainActor () -> Void
    private var handler: gulong = 0

    /// Nil when GLib cannot watch the path (logged by the caller). While the
    /// file's folder is missing GLib polls for it (a new file is heard up to
    /// 4 s late): a caller that can, makes the folder first.
    public init?(path: String, changed: @escaping @MainActor () -> Void) {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let monitor = g_file_monitor_file(file, G_FILE_MONITOR_NONE, nil, nil) else { return nil }
        self.monitor = monitor
        self.changed = changed
        let event:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32,
                UnsafeMutableRawPointer?
            ) -> Void = { _, _, _, _, data in
                let monitor = Unmanaged<FileChangeWatch>.fromOpaque(data!).takeUnretainedValue()
                MainActor.assumeIsolated { monitor.changed() }
            }
        // Unretained: the handler is disconnected in `deinit`, before the object goes.
        handler = g_signal_connect_data(
            UnsafeMutableRawPointer(monitor), "changed", unsafeBitCast(event, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
    }

    isolated deinit {
        g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), handler)
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
    }
}
