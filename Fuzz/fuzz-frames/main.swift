import RelavoiFuzzDriver

// libFuzzer target: stream frames through FrameDecoder (docs/hardening.md).
FuzzDriver.main("fuzz-frames") { data, size in
    let problems = FrameFuzzing.problems(UnsafeRawBufferPointer(fuzzData: data, size: size))
    if !problems.isEmpty { fatalError("fuzz-frames: " + problems.joined(separator: "; ")) }
    return 0
}
