/// Times a loop body: nanoseconds per operation, the best of `repeats`
/// rounds being the least disturbed one, but all rounds reported.
enum OpTimer {
    static func nanosecondsPerOp(iterations: Int, repeats: Int, _ body: (Int) -> Void) -> Spread? {
        var rounds: [Double?] = []
        body(0)  // warm-up: first-use costs stay out of the figure
        for _ in 0..<repeats {
            let start = Clock.now()
            for index in 0..<iterations { body(index) }
            rounds.append(Double(Clock.now() - start) / Double(iterations))
        }
        return Spread(rounds)
    }
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
struct Sink {
    private(set) var value = 0
    mutating func take(_ number: Int) { value &+= number }
}
