import CGLib
import CSecret
import Glibc
import RelavoiGLib

/// Passwords in the desktop keyring (Secret Service) through libsecret: an
/// item is found by its schema's name and string attributes.
///
/// Every call is bounded in time: a cancellable is cancelled from a timer
/// thread, so a hung or prompting keyring cannot block start-up. libsecret's
/// synchronous calls turn a private main context, so these may run on the
/// main thread outside or inside the GLib loop. Passwords are never logged.
public enum SecretService {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The item's password, made into a `Secret` (which should not print it).
    public static func lookup<Secret>(
        schema: String, attributes: [String: String], timeout: Double, as make: (String) -> Secret
    ) -> SecretLookup<Secret> {
        var error: UnsafeMutablePointer<GError>?
        let password = withSchema(schema, attributes) { schema, attributes in
            withTimeout(timeout) { cancellable in
                secret_password_lookupv_sync(schema, attributes, cancellable, &error)
            }
        }
        if let error {
            let reason = describe(error, timeout: timeout)
            if let password { secret_password_free(password) }
            return .unavailable(reason)
        }
        guard let password else { return .notFound }
        defer { secret_password_free(password) }
        return .found(make(String(cString: password)))
    }

    /// Stores `password` in the default collection (which may ask the user to
    /// unlock it), replacing the item with the same attributes.
    public static func store(
        _ password: String, schema: String, attributes: [String: String], label: String, timeout: Double
    ) throws(Failure) {
        var error: UnsafeMutablePointer<GError>?
        let stored = withSchema(schema, attributes) { schema, attributes in
            withTimeout(timeout) { cancellable in
                secret_password_storev_sync(schema, attributes, "default", label, password, cancellable, &error)
            }
        }
        if let error { throw Failure(description: describe(error, timeout: timeout)) }
        guard stored != 0 else { throw Failure(description: "the keyring did not store the secret") }
    }

    /// Removes the item; whether there was one.
    public static func clear(schema: String, attributes: [String: String], timeout: Double) throws(Failure) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let removed = withSchema(schema, attributes) { schema, attributes in
            withTimeout(timeout) { cancellable in
                secret_password_clearv_sync(schema, attributes, cancellable, &error)
            }
        }
        if let error { throw Failure(description: describe(error, timeout: timeout)) }
        return removed != 0
    }

    // MARK: - libsecret plumbing

    /// Also drops libsecret's cached service afterwards: it is bound to the
    /// keyring process it first met, and would fail for good once that one
    /// restarts. Each call opens a fresh session instead (calls are rare).
    private static func withSchema<T>(
        _ name: String, _ attributes: [String: String], _ body: (UnsafeMutablePointer<SecretSchema>, OpaquePointer) -> T
    ) -> T {
        defer { secret_service_disconnect() }
        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value.
        for key in attributes.keys { g_hash_table_insert(types, g_strdup(key), nil) }
        let schema = secret_schema_newv(name, SECRET_SCHEMA_NONE, types)!
        g_hash_table_unref(types)
        defer { secret_schema_unref(schema) }
        let values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (key, value) in attributes { g_hash_table_insert(values, g_strdup(key), g_strdup(value)) }
        defer { g_hash_table_unref(values) }
        return body(schema, values)
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
