/// `runOnLoop` gave up: the work did not finish within its timeout.
public struct LoopTimeout: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the main-loop work did not finish in time" }
}
