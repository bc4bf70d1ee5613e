import CGLib

/// A `GCancellable` that may be cancelled from any thread (task cancellation).
final class Cancellable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GCancellable>

    init() { pointer = g_cancellable_new() }
    deinit { g_object_unref(pointer) }

    func cancel() { g_cancellable_cancel(pointer) }
    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }
}
