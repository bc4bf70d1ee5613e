import Glibc

/// Gives back the page-table entries of the process's clean, read-only file
/// mappings (code and constants of the binary and its libraries), so that
/// only the pages used from then on count as resident. The pages stay in
/// the page cache; a later touch maps them again (a minor fault). Mappings
/// with private copies (relocated RELRO data: `Anonymous` > 0 in smaps) and
/// writable ones are left alone: dropping those would lose their contents.
///
/// Reading `/proc/self/smaps` walks every page table (5 ms here; 12 ms when it was parsed as text), so
/// it is read only when `/proc/self/maps` (cheap) shows a mapping not judged
/// yet (and every `judgeEvery` releases).
public struct ResidentFilePages {
    /// A mapping as `/proc/self/maps` names it: address range, offset, device and inode.
    struct Key: Hashable {
        let start: UInt
        let end: UInt
        let offset: UInt
        let device: UInt
        let inode: UInt
    }

    private var clean: Set<Key> = []
    private var kept: Set<Key> = []
    /// smaps is read again every so many releases all the same, so that a
    /// mapping made writable and back again in between is judged anew.
    private var releasesSinceJudged = 0
    static let judgeEvery = 10

    public init() {}

    /// Returns the bytes of the mappings it advised.
    @discardableResult
    public mutating func release() -> Int {
        guard let maps = Self.readAll("/proc/self/maps") else { return 0 }
        let candidates = Self.lines(maps).compactMap { Self.cleanFileMapping(maps[$0]) }
        releasesSinceJudged += 1
        if releasesSinceJudged >= Self.judgeEvery
            || candidates.contains(where: { !clean.contains($0) && !kept.contains($0) })
        {
            judge()
            releasesSinceJudged = 0
        }
        var released = 0
        for mapping in candidates where clean.contains(mapping) {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            if madvise(address, length, MADV_DONTNEED) == 0 { released += length }
        }
        return released
    }

    /// Sorts every candidate mapping into clean and kept by smaps' `Anonymous`
    /// and `Swap`, forgetting mappings that are gone.
    private mutating func judge() {
        guard let smaps = Self.readAll("/proc/self/smaps") else { return }
        (clean, kept) = Self.judged(smaps: smaps)
    }

    /// The candidate mappings of smaps' text, without private copies (clean)
    /// and with them (kept).
    static func judged(smaps: [UInt8]) -> (clean: Set<Key>, kept: Set<Key>) {
        var clean: Set<Key> = []
        var kept: Set<Key> = []
        var current: Key?
        var privateCopies = false
        func finish() {
            if let current { if privateCopies { kept.insert(current) } else { clean.insert(current) } }
            current = nil
            privateCopies = false
        }
        for range in lines(smaps) {
            let line = smaps[range]
            if isMappingHeader(line) {
                finish()
                current = cleanFileMapping(line)
            } else if current != nil, startsWith(line, "Anonymous:") || startsWith(line, "Swap:") {
                // "Anonymous:            0 kB": any digit but a lone 0 means private copies.
                let digits = line.drop { $0 != UInt8(ascii: " ") }.drop { $0 == UInt8(ascii: " ") }
                if digits.first != UInt8(ascii: "0") { privateCopies = true }
            }
        }
        finish()
        return (clean, kept)
    }

    /// A mapping's first line starts with its address range (`7f1c2a000000-`);
    /// a field's starts with its capitalised name (`Rss:`). The end of the line
    /// says nothing: a path may end in "kB" as a field does.
    static func isMappingHeader(_ line: ArraySlice<UInt8>) -> Bool {
        let digits = line.prefix { hexValue($0) != nil }
        return !digits.isEmpty && line.dropFirst(digits.count).first == UInt8(ascii: "-")
    }

    /// `start-end perms offset dev inode path`: readable, not writable, backed
    /// by a file (not `[vdso]`, not a deleted file or a memfd).
    static func cleanFileMapping(_ line: ArraySlice<UInt8>) -> Key? {
        var rest = line[...]
        guard let start = hex(&rest, until: "-"), let end = hex(&rest, until: " "), end > start,
            rest.count > 5, rest[rest.startIndex] == UInt8(ascii: "r"), rest[rest.startIndex + 1] != UInt8(ascii: "w")
        else { return nil }
        rest = rest.dropFirst(5)
        guard let offset = hex(&rest, until: " "), let major = hex(&rest, until: ":"),
            let minor = hex(&rest, until: " "), let inode = decimal(&rest, until: " ")
        else { return nil }
        let path = rest.drop { $0 == UInt8(ascii: " ") }
        guard path.first == UInt8(ascii: "/"), !endsWith(path, " (deleted)") else { return nil }
        return Key(start: start, end: end, offset: offset, device: major << 20 | minor, inode: inode)
    }

    /// The header test's form of the same.
    static func cleanFileMapping(_ header: Substring) -> Key? {
        cleanFileMapping(Array(header.utf8)[...])
    }

    private static func hex(_ text: inout ArraySlice<UInt8>, until separator: Unicode.Scalar) -> UInt? {
        var value: UInt = 0
        var digits = 0
        while let byte = text.first, byte != UInt8(ascii: separator) {
            guard let digit = hexValue(byte), digits < 16 else { return nil }
            value = value << 4 | digit
            digits += 1
            text = text.dropFirst()
        }
        guard digits > 0, text.first == UInt8(ascii: separator) else { return nil }
        text = text.dropFirst()
        return value
    }

    private static func decimal(_ text: inout ArraySlice<UInt8>, until separator: Unicode.Scalar) -> UInt? {
        var value: UInt = 0
        var digits = 0
        while let byte = text.first, byte != UInt8(ascii: separator) {
            guard byte >= 0x30, byte <= 0x39, digits < 19 else { return nil }
            value = value * 10 + UInt(byte - 0x30)
            digits += 1
            text = text.dropFirst()
        }
        guard digits > 0 else { return nil }
        text = text.dropFirst()
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt? {
        switch byte {
        case 0x30...0x39: return UInt(byte - 0x30)
        case 0x61...0x66: return UInt(byte - 0x61 + 10)
        default: return nil
        }
    }

    private static func startsWith(_ line: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        line.count >= prefix.utf8CodeUnitCount
            && prefix.withUTF8Buffer { line.prefix($0.count).elementsEqual($0) }
    }

    private static func endsWith(_ line: ArraySlice<UInt8>, _ suffix: StaticString) -> Bool {
        line.count >= suffix.utf8CodeUnitCount
            && suffix.withUTF8Buffer { line.suffix($0.count).elementsEqual($0) }
    }

    /// The index ranges of the lines of `bytes` (without their newlines).
    private static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(512)
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            if index > start { ranges.append(start..<index) }
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    private static func readAll(_ path: String) -> [UInt8]? {
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
        return bytes
    }
}
