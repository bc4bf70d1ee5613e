import CGLib

/// Carries a one-shot Swift closure through a `GAsyncReadyCallback`: the
/// box is retained until the callback runs, which releases it.
final class AsyncReadyBox: Sendable {
    let body: @MainActor (OpaquePointer?) -> Void
    init(_ body: @escaping @MainActor (OpaquePointer?) -> Void) { self.body = body }

    /// The `(callback, user_data)` pair for a GIO `_async` call made on the
    /// main thread's thread-default context.
    static func make(_ body: @escaping @MainActor (OpaquePointer?) -> Void) -> (
        GAsyncReadyCallback, gpointer
    ) {
        let data = Unmanaged.passRetained(AsyncReadyBox(body)).toOpaque()
        let callback: GAsyncReadyCallback = { _, result, data in
            let box = Unmanaged<AsyncReadyBox>.fromOpaque(data!).takeRetainedValue()
            nonisolated(unsafe) let result = result
            MainActor.assumeIsolated { box.body(result) }
        }
        return (callback, data)
    }
}
