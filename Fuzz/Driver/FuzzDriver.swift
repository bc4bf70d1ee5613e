import Foundation

/// The entry of every fuzz target (`Fuzz/fuzz-*/main.swift`).
///
/// SwiftPM links an executable target with `--defsym main=<module>_main`,
/// which beats libFuzzer's own `main`, so the targets have a `main.swift`
/// that calls `FuzzDriver.main`. Built by `scripts/fuzz.sh`
/// (`-sanitize=fuzzer,address` and `--export-dynamic-symbol=LLVMFuzzerRunDriver`)
/// it hands over to libFuzzer's `LLVMFuzzerRunDriver` with the libFuzzer flags
/// of the command line. In a plain build there is no libFuzzer: the target
/// replays the files and directories it is given through the same check, so
/// a finding reproduces without sanitizers:
///
///     .build/debug/fuzz-frames Fuzz/crashes/fuzz-frames/crash-…
public enum FuzzDriver {
    /// One input; returns 0 (libFuzzer's contract). A finding traps.
    public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    private typealias RunDriver =
        @convention(c) (
            UnsafeMutablePointer<CInt>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
            Callback
        ) -> CInt

    public static func main(_ name: String, _ callback: @escaping Callback) -> Never {
        registered = callback
        if let symbol = dlsym(nil, "LLVMFuzzerRunDriver") {
            let run = unsafeBitCast(symbol, to: RunDriver.self)
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(run(&argc, &argv, callback))
        }
        exit(replay(name, paths: CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") }, callback))
    }

    /// Runs every file (directories: every file inside, sorted) through `callback`.
    static func replay(_ name: String, paths: [String], _ callback: Callback) -> CInt {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    """
                    usage: \(name) FILE|DIR…
                    Built without -sanitize=fuzzer: replays inputs through the check.
                    Fuzz with `make fuzz` (scripts/fuzz.sh); see docs/hardening.md.

                    """.utf8))
            return 2
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(name): cannot read \(file)\n".utf8))
                    return 1
                }
                let bytes = [UInt8](data)
                _ = bytes.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("\(name): replayed \(count) inputs, no finding (plain build: no libFuzzer, no sanitizer)")
        return 0
    }

    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }
}

/// The check `main` was given. libFuzzer calls the callback passed to
/// `LLVMFuzzerRunDriver`; this is only read by `LLVMFuzzerTestOneInput`.
nonisolated(unsafe) private var registered: FuzzDriver.Callback?

/// libFuzzer's archive (its `main`, which SwiftPM's `--defsym main=` replaces)
/// refers to this symbol, so the link needs it; it forwards to the target's
/// check. Defined once here, so the three targets can share a test binary.
@_cdecl("LLVMFuzzerTestOneInput")
public func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    registered?(data, size) ?? 0
}

extension UnsafeRawBufferPointer {
    /// libFuzzer's (pointer, size) as a buffer; a nil pointer is empty.
    public init(fuzzData data: UnsafePointer<UInt8>?, size: Int) {
        self.init(start: size > 0 ? data : nil, count: size > 0 ? size : 0)
    }
}
