import Foundation

/// A result a task on the loop hands to the waiting thread.
public final class ResultBox<T: Sendable>: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var stored: Result<T, Error>?
    public var result: Result<T, Error>? { lock.withLock { stored } }
    public func set(_ value: Result<T, Error>) { lock.withLock { stored = value } }
}
