import CGLib
import Foundation
import RelavoiGLib

/// The agent's shape in miniature: a thread with its own GLib context, woken
/// from the main loop through a `WakeSource`, that sends each `Notify` as an
/// asynchronous call answered on that thread, one in flight per banner (the
/// agent's presenter, without the rest of the agent).
final class ThreadSender: @unchecked Sendable {
    private let bus: OpaquePointer
    private var wakeSource: WakeSource?
    private let ready = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var second = 0
    private var ids: [UInt32]
    private var inFlight: [Bool]

    init(bus: OpaquePointer, banners: Int) {
        self.bus = bus
        ids = Array(repeating: 0, count: banners)
        inFlight = Array(repeating: false, count: banners)
        Threads.detach(name: "ticker-sender") { [self] in
            let context = g_main_context_new()!
            g_main_context_push_thread_default(context)
            self.wakeSource = WakeSource(context: context) { [unowned self] in self.sendAll() }
            let loop = g_main_loop_new(context, 0)
            self.ready.signal()
            g_main_loop_run(loop)
        }
        ready.wait()
    }

    /// Called on the main thread: the sender thread makes the calls.
    func send(second: Int) {
        lock.withLock { self.second = second }
        wakeSource?.wake()
    }

    private final class Call {
        let sender: ThreadSender
        let index: Int
        init(_ sender: ThreadSender, _ index: Int) {
            self.sender = sender
            self.index = index
        }
    }

    private func sendAll() {
        let second = lock.withLock { self.second }
        for index in ids.indices where !inFlight[index] {
            inFlight[index] = true
            let done: GAsyncReadyCallback = { source, result, data in
                let call = Unmanaged<Call>.fromOpaque(data!).takeRetainedValue()
                call.sender.inFlight[call.index] = false
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return }
                let id = g_variant_get_child_value(reply, 0)!
                call.sender.ids[call.index] = g_variant_get_uint32(id)
                g_variant_unref(id)
                g_variant_unref(reply)
            }
            g_dbus_connection_call(
                bus, BusNames.notifications, "/org/freedesktop/Notifications", BusNames.notifications, "Notify",
                TickerContent.arguments(index: index, second: second, replacesId: ids[index]),
                VariantType.notifyReply, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, done,
                Unmanaged.passRetained(Call(self, index)).toOpaque())
        }
    }
}
