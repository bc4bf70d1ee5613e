/// A failure of the benchmark itself (not of the agent), with what to do.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
