/// A C pointer carried into `MainActor.assumeIsolated`; only ever used on the
/// main thread, inside a libsoup callback or a main-loop source.
struct MainThreadPointer: @unchecked Sendable {
    let raw: OpaquePointer
}
