import CGLib
import CSoup
import RelavoiGLib

/// A paused HTTP message whose answer waits (`responseDelay`, `restLatency`):
/// answered at the end of the wait unless its client went first, when libsoup
/// has no I/O left to resume (unpausing it then is a critical warning).
final class HeldResponse {
    private let message: OpaquePointer
    private var clientGone = false
    private var handlerID: gulong = 0

    /// Pauses `message`, and answers it with `response` after `delay` seconds.
    static func answer(_ message: OpaquePointer, with response: RESTResponse, after delay: Double) {
        let held = HeldResponse(message)
        g_object_ref(UnsafeMutableRawPointer(message))
        soup_server_message_pause(message)
        let onDisconnected: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            guard let data else { return }
            Unmanaged<HeldResponse>.fromOpaque(data).takeUnretainedValue().clientGone = true
        }
        held.handlerID = g_signal_connect_data(
            UnsafeMutableRawPointer(message), "disconnected", unsafeBitCast(onDisconnected, to: GCallback.self),
            Unmanaged.passUnretained(held).toOpaque(), nil, GConnectFlags(0))
        GLibTimer.once(after: delay) {
            held.finish(response)
        }
    }

    private init(_ message: OpaquePointer) { self.message = message }

    private func finish(_ response: RESTResponse) {
        g_signal_handler_disconnect(UnsafeMutableRawPointer(message), handlerID)
        if !clientGone {
            SoupMessage.respond(message, response)
            soup_server_message_unpause(message)
        }
        g_object_unref(UnsafeMutableRawPointer(message))
    }
}
