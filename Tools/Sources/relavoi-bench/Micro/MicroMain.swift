import Foundation

/// `relavoi-bench micro --out FILE [--firehose N]`: the in-process part, in a
/// process of its own (the controller's delivery thread stays out of the
/// main benchmark). Run it with no notification server on the bus.
@MainActor
enum MicroMain {
    struct Result: Codable, Equatable {
        var perEvent: PerEventWork.Result
        var firehose: FirehoseDispatch.Result
    }

    static func run(out: String, firehoseFrames: Int) -> Int32 {
        let result = Result(
            perEvent: PerEventWork.run(repeats: 5), firehose: FirehoseDispatch.run(frames: firehoseFrames, repeats: 3))
        do {
            try JSONOutput.write(result, to: out)
            return 0
        } catch {
            FileHandle.standardError.write(Data("relavoi-bench micro: \(error)\n".utf8))
            return 1
        }
    }
}
