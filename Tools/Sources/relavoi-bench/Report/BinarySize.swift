import Foundation

/// The agent binary the benchmark ran, on disk and as `make release` ships
/// it (`--strip-all`): the benchmark's build keeps its symbols.
struct BinarySize: Codable, Equatable {
    var path: String
    var bytes: Int
    /// After `strip --strip-all` (binutils) of a copy; nil without strip.
    var strippedBytes: Int?

    static func measure(_ path: String, scratch: String) -> BinarySize? {
        guard let bytes = size(of: path) else { return nil }
        let copy = scratch + "/relavoi-agent.stripped"
        defer { unlink(copy) }
        var stripped: Int?
        if let strip = try? Child.spawn("/usr/bin/strip", ["--strip-all", "-o", copy, path]) {
            strip.waitBlocking()
            if strip.exitStatus == 0 { stripped = size(of: copy) }
        }
        return BinarySize(path: path, bytes: bytes, strippedBytes: stripped)
    }

    private static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }
}
