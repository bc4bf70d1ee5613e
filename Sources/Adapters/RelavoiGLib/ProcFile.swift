import Glibc

/// Reads small kernel files (/proc, /sys): their size reads as 0, so they
/// are read to the end. The agent's own figures and relavoi-bench's and
/// relavoi-soak's probes (Tools/: RelavoiProcFS) read through it.
public enum ProcFile {
    /// The whole file; nil if it cannot be opened.
    public static func bytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// The whole file as text (bytes that are not UTF-8 read as U+FFFD).
    public static func read(_ path: String) -> String? {
        bytes(path).map { String(decoding: $0, as: UTF8.self) }
    }
}
