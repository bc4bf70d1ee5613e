import CGLib
import Foundation

/// The agent's shape in miniature: a thread with its own GLib context that
/// makes each `Notify` as a synchronous call, woken from the main loop with
/// g_main_context_invoke (libnotify's calls on the agent's presenter thread).
final class SyncSender: @unchecked Sendable {
    private let bus: OpaquePointer
    private var context: OpaquePointer?
    private let ready = DispatchSemaphore(value: 0)
    private var ids: [UInt32]

    init(bus: OpaquePointer, banners: Int) {
        self.bus = bus
        ids = Array(repeating: 0, count: banners)
        let thread = Thread { [self] in
            let context = g_main_context_new()
            g_main_context_push_thread_default(context)
            self.context = context
            let loop = g_main_loop_new(context, 0)
            self.ready.signal()
            g_main_loop_run(loop)
        }
        thread.name = "ticker-sender"
        thread.start()
        ready.wait()
    }

    /// Called on the main thread: the sender thread makes the calls.
    func send(second: Int) {
        final class Job {
            let sender: SyncSender
            let second: Int
            init(_ sender: SyncSender, _ second: Int) {
                self.sender = sender
                self.second = second
            }
        }
        let run: GSourceFunc = { data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeUnretainedValue()
            job.sender.sendAll(second: job.second)
            return gboolean(0)
        }
        let release: GDestroyNotify = { data in Unmanaged<Job>.fromOpaque(data!).release() }
        g_main_context_invoke_full(
            context, G_PRIORITY_DEFAULT, run, Unmanaged.passRetained(Job(self, second)).toOpaque(), release)
    }

    private func sendAll(second: Int) {
        for index in ids.indices {
            let arguments = TickerContent.arguments(index: index, second: second, replacesId: ids[index])
            guard
                let reply = g_dbus_connection_call_sync(
                    bus, BusNames.notifications, "/org/freedesktop/Notifications", BusNames.notifications, "Notify",
                    arguments, g_variant_type_checked_("(u)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, nil)
            else { continue }
            let id = g_variant_get_child_value(reply, 0)!
            ids[index] = g_variant_get_uint32(id)
            g_variant_unref(id)
            g_variant_unref(reply)
        }
    }
}
