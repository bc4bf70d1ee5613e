import CGLib
import CSecret
import FoundationEssentials
import Glibc
import RelavoiGLib

/// The desktop keyring (Secret Service) through libsecret: one item per API
/// key, schema `com.relavoi.Agent`, attribute `api-key` = the key.
///
/// Every call is bounded in time: a cancellable is cancelled from a timer
/// thread, so a hung or prompting keyring cannot block start-up. libsecret's
/// synchronous calls turn a private main context, so these may run on the
/// main thread outside or inside the GLib loop.
///
/// By hand: `secret-tool store --label='Relavoi API secret' xdg:schema
/// com.relavoi.Agent api-key rk_live_…` stores an item this finds.
public enum Keyring {
    public static let schemaName = "com.relavoi.Agent"
    public static let keyAttribute = "api-key"

    public enum LookupResult: Equatable, Sendable {
        case found(APISecret)
        /// The keyring answered: no item for this key.
        case notFound
        /// No keyring on the bus, locked and not unlocked, an error, or no answer in time.
        case unavailable(String)
    }

    public struct StoreError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public static func lookup(apiKey: String, timeout: Double = 5) -> LookupResult {
        var error: UnsafeMutablePointer<GError>?
        let password = withSchema { schema in
            withAttributes(apiKey: apiKey) { attributes in
                withTimeout(timeout) { cancellable in
                    secret_password_lookupv_sync(schema, attributes, cancellable, &error)
                }
            }
        }
        if let error {
            let reason = describe(error, timeout: timeout)
            if let password { secret_password_free(password) }
            return .unavailable(reason)
        }
        guard let password else { return .notFound }
        defer { secret_password_free(password) }
        return .found(APISecret(String(cString: password)))
    }

    /// Stores `secret` for `apiKey` in the default collection (which may ask
    /// the user to unlock it: hence the longer default timeout), replacing an
    /// item for the same key.
    public static func store(secret: APISecret, apiKey: String, label: String, timeout: Double = 120)
        throws(StoreError)
    {
        var error: UnsafeMutablePointer<GError>?
        let stored = withSchema { schema in
            withAttributes(apiKey: apiKey) { attributes in
                withTimeout(timeout) { cancellable in
                    secret_password_storev_sync(schema, attributes, "default", label, secret.value, cancellable, &error)
                }
            }
        }
        if let error { throw StoreError(description: describe(error, timeout: timeout)) }
        guard stored != 0 else { throw StoreError(description: "the keyring did not store the secret") }
    }

    /// Removes the item for `apiKey`; whether there was one.
    @discardableResult
    public static func clear(apiKey: String, timeout: Double = 5) throws(StoreError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let removed = withSchema { schema in
            withAttributes(apiKey: apiKey) { attributes in
                withTimeout(timeout) { cancellable in
                    secret_password_clearv_sync(schema, attributes, cancellable, &error)
                }
            }
        }
        if let error { throw StoreError(description: describe(error, timeout: timeout)) }
        return removed != 0
    }

    // MARK: - libsecret plumbing

    /// Also drops libsecret's cached service afterwards: it is bound to the
    /// keyring process it first met, and would fail for good once that one
    /// restarts. Each call opens a fresh session instead (calls are rare).
    private static func withSchema<T>(_ body: (UnsafeMutablePointer<SecretSchema>) -> T) -> T {
        defer { secret_service_disconnect() }
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value.
        g_hash_table_insert(types, g_strdup(keyAttribute), nil)
        let schema = secret_schema_newv(schemaName, SECRET_SCHEMA_NONE, types)!
        g_hash_table_unref(types)
        defer { secret_schema_unref(schema) }
        return body(schema)
    }

    private static func withAttributes<T>(apiKey: String, _ body: (OpaquePointer) -> T) -> T {
        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(attributes, g_strdup(keyAttribute), g_strdup(apiKey))
        defer { g_hash_table_unref(attributes) }
        return body(attributes)
    }

    /// A `GCancellable` cancelled from a timer thread after `seconds`.
    private static func withTimeout<T>(_ seconds: Double, _ body: (UnsafeMutablePointer<GCancellable>) -> T) -> T {
        let cancellable = CancellableReference()
        let timer = CancelAfter(seconds: seconds, cancellable)
        defer { timer.stop() }
        return body(cancellable.pointer)
    }

    private static func describe(_ error: UnsafeMutablePointer<GError>, timeout: Double) -> String {
        let cancelled = g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue)) != 0
        let text = GErrorText.take(error)
        return cancelled ? "the keyring did not answer within \(formatted(timeout)) s" : text
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Cancels a `GCancellable` after a while from a plain thread of its own,
/// unless stopped first. Not a libdispatch timer: the first use of a global
/// queue starts libdispatch's worker monitor, which then wakes the idle agent
/// every second for good (see `MainLoop.runGlobalExecutorJobsOnMainThread`).
private final class CancelAfter: @unchecked Sendable {
    // GMutex/GCond (not NSCondition): g_cond_wait_until waits on the monotonic
    // clock, so a wall-clock step at login neither stretches nor skips the wait.
    private let mutex = UnsafeMutablePointer<GMutex>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<GCond>.allocate(capacity: 1)
    private var stopped = false

    init(seconds: Double, _ cancellable: CancellableReference) {
        g_mutex_init(mutex)
        g_cond_init(condition)
        let deadline = g_get_monotonic_time() + gint64(max(0, seconds) * 1_000_000)
        Threads.detach(name: "relavoi-worker") { [self] in
            g_mutex_lock(mutex)
            while !stopped, g_cond_wait_until(condition, mutex, deadline) != 0 {}
            let expired = !stopped
            g_mutex_unlock(mutex)
            if expired { cancellable.cancel() }
        }
    }

    deinit {
        g_cond_clear(condition)
        g_mutex_clear(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func stop() {
        g_mutex_lock(mutex)
        stopped = true
        g_cond_signal(condition)
        g_mutex_unlock(mutex)
    }
}

/// A `GCancellable` that a timer thread may cancel (GCancellable is thread-safe).
private final class CancellableReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GCancellable>
    init() { pointer = g_cancellable_new() }
    deinit { g_object_unref(pointer) }
    func cancel() { g_cancellable_cancel(pointer) }
}
