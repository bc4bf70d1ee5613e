import CGLib
import Dispatch
import FoundationEssentials

/// The process's GLib main loop on the main thread, with Swift concurrency
/// running inside it. An app using RelavoiSDK either calls `run()` from a
/// synchronous `main.swift`, or, when it runs the default context itself
/// (`g_application_run`, `gtk_main`, `g_main_loop_run(g_main_loop_new(NULL, FALSE))`),
/// calls `installDispatchBridge()` once on the main thread before that.
///
/// While GLib owns the main thread nothing drains libdispatch's main queue, so
/// `Task { @MainActor in }`, `DispatchQueue.main.async` and continuations
/// resumed on the main actor would never run. libdispatch exposes the main
/// queue's wake-up eventfd (the hook CoreFoundation uses); watching it with a
/// GLib fd source and draining the queue when it fires makes both worlds share
/// one loop.
public enum MainLoop {
    nonisolated(unsafe) private static var loop: OpaquePointer?
    nonisolated(unsafe) private static var bridgeInstalled = false

    /// Installs the main-queue bridge on the default GLib context, for a host
    /// that runs that context itself (a GTK or libadwaita `GApplication`).
    /// Idempotent; call from the main thread before the host's loop starts.
    public static func installDispatchBridge() {
        precondition(Threads.isMainThread, "MainLoop must be driven from the main thread")
        if bridgeInstalled { return }
        bridgeInstalled = true
        let fd = _dispatch_get_main_queue_handle_4CF()
        let source = g_unix_fd_source_new(fd, G_IO_IN)!
        let callback: GUnixFDSourceFunc = { fd, _, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
            return gboolean(1)
        }
        g_source_set_callback(source, unsafeBitCast(callback, to: GSourceFunc.self), nil, nil)
        g_source_set_priority(source, G_PRIORITY_DEFAULT)
        g_source_attach(source, nil)
        g_source_unref(source)
        // Work queued before the bridge existed would otherwise wait for the next wake-up.
        _dispatch_main_queue_callback_4CF(nil)
    }

    /// Sends the jobs of Swift concurrency's global executor to the main
    /// executor, so nonisolated async code and continuation resumes run on the
    /// main thread and libdispatch never starts a worker thread (whose pool
    /// monitor would wake the process every second, for good). Delayed jobs
    /// (`Task.sleep`) are not covered: use GLib timers. For a process
    /// whose tasks all belong on its main loop, as the agent's do; call once at
    /// start-up, before any task runs. A library must not do this to its host.
    package static func runGlobalExecutorJobsOnMainThread() {
        relavoi_run_global_jobs_on_main_executor()
    }

    /// Runs the GLib main loop on the default context until `quit()`.
    public static func run() {
        installDispatchBridge()
        let mainLoop = g_main_loop_new(nil, 0)
        loop = mainLoop
        g_main_loop_run(mainLoop)
        g_main_loop_unref(mainLoop)
        loop = nil
    }

    /// Makes `run()` return.
    public static func quit() {
        if let loop { g_main_loop_quit(loop) }
    }

    /// Whether `run()` is running (false while a host runs its own loop).
    public static var isRunning: Bool { loop != nil }

    /// Runs the default context until `done()` is true or `timeout` seconds
    /// of GLib's monotonic clock pass; for synchronous start-up and short
    /// blocking questions. Returns whether `done()` held.
    @discardableResult
    package static func iterate(timeout: Double, until done: () -> Bool) -> Bool {
        installDispatchBridge()
        let deadline = GLibTimer.now() + timeout
        while !done() {
            if GLibTimer.now() >= deadline { return false }
            let wake = GLibTimer.once(after: 0.05) {}
            g_main_context_iteration(nil, 1)
            wake.cancel()
        }
        return true
    }
}
