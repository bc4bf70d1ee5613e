import CGLib

/// A mutex (GLib's `GMutex`): `withLock` as Foundation's NSLock has it.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<GMutex>

    public init() {
        mutex = .allocate(capacity: 1)
        g_mutex_init(mutex)
    }

    deinit {
        g_mutex_clear(mutex)
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        return try body()
    }
}
