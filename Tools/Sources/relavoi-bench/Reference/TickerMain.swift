import CGLib
import Foundation
import RelavoiGLib
import RelavoiMachines

/// `relavoi-bench ticker --banners N`: the reference client for the agent's
/// CPU per banner update, measured like the agent. One GLib main loop and one
/// timer aligned to the second; each tick sends one `Notify` per banner on the
/// shared GDBus connection, asynchronously from the main loop (the cheapest
/// long-lived client). No libnotify, no Swift concurrency. Runs until SIGTERM.
@MainActor
enum TickerMain {
    final class Banner {
        var id: UInt32 = 0
    }

    static func run(banners count: Int) -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            FileHandle.standardError.write(Data("relavoi-bench ticker: \(GErrorText.take(error))\n".utf8))
            return 1
        }
        let banners = (0..<count).map { _ in Banner() }
        var second = 0
        func tick() {
            second += 1
            for (index, banner) in banners.enumerated() {
                let done: GAsyncReadyCallback = { source, result, data in
                    let banner = Unmanaged<Banner>.fromOpaque(data!).takeRetainedValue()
                    guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return }
                    let id = g_variant_get_child_value(reply, 0)!
                    banner.id = g_variant_get_uint32(id)
                    g_variant_unref(id)
                    g_variant_unref(reply)
                }
                g_dbus_connection_call(
                    bus, BusNames.notifications, "/org/freedesktop/Notifications", BusNames.notifications, "Notify",
                    TickerContent.arguments(index: index, second: second, replacesId: banner.id),
                    VariantType.notifyReply, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, done,
                    Unmanaged.passRetained(banner).toOpaque())
            }
        }
        func schedule() {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            GLibTimer.once(after: 1.0 - Double(now.tv_nsec) / 1e9 + 0.005) {
                MainActor.assumeIsolated {
                    tick()
                    schedule()
                }
            }
        }
        tick()
        schedule()
        MainLoop.run()
        return 0
    }
}
