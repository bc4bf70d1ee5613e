/// Runs main-actor async work to completion while the test thread drives the GLib loop.
public func runOnLoop<T: Sendable>(timeout: Double = 20, _ body: @escaping @MainActor () async throws -> T) throws -> T
{
    let box = ResultBox<T>()
    Task { @MainActor in
        do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
    }
    guard LoopWait.until(timeout: timeout, { box.result != nil }) else {
        throw LoopTimeout()
    }
    return try box.result!.get()
}
