import Glibc

/// Gives back the page-table entries of the process's clean, read-only file
/// mappings (code and constants of the binary and its libraries), so that
/// only the pages used from then on count as resident. The pages stay in
/// the page cache; a later touch maps them again (a minor fault). Mappings
/// with private copies (relocated RELRO data: `Anonymous` > 0) and
/// writable ones are left alone: dropping those would lose their contents.
public enum ResidentFilePages {
    /// Returns the bytes of the mappings it advised.
    @discardableResult
    public static func release() -> Int {
        guard let smaps = readAll("/proc/self/smaps") else { return 0 }
        var released = 0
        var candidate: (start: UInt, length: Int)?
        func finish() {
            guard let mapping = candidate else { return }
            candidate = nil
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { return }
            if madvise(address, mapping.length, MADV_DONTNEED) == 0 { released += mapping.length }
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            if let first = line.first, first.isHexDigit, line.contains("-"), !line.hasSuffix(" kB") {
                finish()
                candidate = Self.cleanFileMapping(line)
            } else if line.hasPrefix("Anonymous:") || line.hasPrefix("Swap:") {
                let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                if kilobytes.flatMap({ Int($0) }) != 0 { candidate = nil }
            }
        }
        finish()
        return released
    }

    /// `start-end perms offset dev inode path`: readable, not writable, backed by a file.
    static func cleanFileMapping(_ header: Substring) -> (start: UInt, length: Int)? {
        let fields = header.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count == 6, fields[1].hasPrefix("r"), !fields[1].contains("w") else { return nil }
        let path = fields[5].drop { $0 == " " }
        guard path.hasPrefix("/"), !path.hasSuffix("(deleted)")
        else { return nil }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
            end > start
        else { return nil }
        return (start, Int(end - start))
    }

    private static func readAll(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
