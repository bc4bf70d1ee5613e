import CLoadedObjects
import Glibc

/// Gives back the page-table entries of the clean pages of the loaded ELF
/// objects' read-only segments (code and constants of the executable and its
/// libraries), so that only the pages used from then on count as resident.
/// The pages stay in the page cache; a later touch maps them again (a minor
/// fault).
///
/// Safe by construction: `madvise(MADV_DONTNEED)` zeroes anonymous memory, so
/// it is given only ranges that cannot become anything else while it runs.
/// The objects are pinned first (`dlopen(RTLD_NOLOAD | RTLD_NODELETE)`: never
/// unloaded from then on), so their segments stay mapped to their files; any
/// other file mapping (locale-archive, icon caches, `GMappedFile` data) could
/// be unmapped by another thread and its address reused, and is left alone.
/// Of a pinned object only the load segments without `PF_W` are taken:
/// relocated RELRO data lies in the writable segment. `/proc/self/maps` must
/// still show the range readable, unwritable and file-backed, and
/// `/proc/self/pagemap` no private copy in it (a debugger's breakpoint, a
/// uprobe), read at each release.
public struct ResidentFilePages {
    /// A mapping as `/proc/self/maps` names it: address range, file offset and inode.
    struct FileMapping {
        let start: UInt
        let end: UInt
        let offset: UInt
        let inode: UInt
    }

    public init() {}

    /// The segments of the last pinning and the loader's generation then:
    /// pinning costs 2-3 ms (a dlopen per object), the generation a callback.
    private final class PinnedSegments: @unchecked Sendable {
        let lock = Lock()
        var generation: UInt64?
        var segments: [Range<UInt>] = []
    }
    private let pinned = PinnedSegments()

    /// The pinned objects' read-only segments, pinned anew only when the
    /// loader has loaded or unloaded something since the last time.
    private func currentSegments() -> [Range<UInt>] {
        pinned.lock.withLock {
            let generation = UInt64(relavoi_loaded_objects_generation())
            if pinned.generation != generation || generation == 0 {
                pinned.segments = Self.pinnedReadOnlySegments()
                pinned.generation = generation
            }
            return pinned.segments
        }
    }

    /// Returns the bytes of the ranges it advised.
    @discardableResult
    public func release() -> Int {
        guard let maps = ProcFile.bytes("/proc/self/maps") else { return 0 }
        return release(maps: maps)
    }

    /// The release from a copy of `/proc/self/maps` read earlier (tests hand
    /// it a stale one): only the pinned objects' segments are advised, so what
    /// was unmapped and mapped again since is never touched.
    func release(maps: [UInt8]) -> Int {
        let ranges = Self.releasable(maps: maps, segments: currentSegments())
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        var released = 0
        for range in ranges {
            for run in Self.residentRuns(range, pagemap: pagemap) ?? [] {
                guard let address = UnsafeMutableRawPointer(bitPattern: run.lowerBound) else { continue }
                let length = Int(run.upperBound - run.lowerBound)
                if madvise(address, length, MADV_DONTNEED) == 0 { released += length }
            }
        }
        return released
    }

    /// The runs of `range`'s pages that are mapped now (the only ones worth
    /// advising: most of a library never is), or nil when a page is a private
    /// copy or its entry is unknown.
    static func residentRuns(_ range: Range<UInt>, pagemap: Int32) -> [Range<UInt>]? {
        let pageSize = UInt(getpagesize())
        let pages = Int((range.upperBound - range.lowerBound) / pageSize)
        var entries = [UInt64](repeating: 0, count: pages)
        let bytes = entries.withUnsafeMutableBytes { buffer in
            pread(pagemap, buffer.baseAddress, buffer.count, off_t(range.lowerBound / pageSize * 8))
        }
        guard bytes == pages * 8, !entries.contains(where: isPrivateCopy) else { return nil }
        var runs: [Range<UInt>] = []
        var runStart: Int?
        for index in 0...pages {
            let present = index < pages && entries[index] & (1 << 63) != 0
            if present, runStart == nil { runStart = index }
            if !present, let start = runStart {
                runs.append(
                    (range.lowerBound + UInt(start) * pageSize)..<(range.lowerBound + UInt(index) * pageSize))
                runStart = nil
            }
        }
        return runs
    }

    /// The parts of maps' clean file mappings that lie in one of `segments`
    /// (the pinned objects' read-only load segments).
    static func releasable(maps: [UInt8], segments: [Range<UInt>]) -> [Range<UInt>] {
        let segments = segments.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var ranges: [Range<UInt>] = []
        var first = 0  // maps is sorted by address too: segments ending before a mapping are done with
        for line in lines(maps) {
            guard let mapping = cleanFileMapping(maps[line]) else { continue }
            let mapped = mapping.start..<mapping.end
            while first < segments.count, segments[first].upperBound <= mapped.lowerBound { first += 1 }
            for segment in segments[first...] {
                if segment.lowerBound >= mapped.upperBound { break }
                ranges.append(segment.clamped(to: mapped))
            }
        }
        return ranges
    }

    /// The pinned loaded objects' read-only load segments (CLoadedObjects).
    static func pinnedReadOnlySegments() -> [Range<UInt>] {
        var segments: [Range<UInt>] = []
        withUnsafeMutablePointer(to: &segments) { pointer in
            _ = relavoi_pinned_readonly_segments(
                { context, start, end in
                    guard let context, end > start else { return }
                    context.assumingMemoryBound(to: [Range<UInt>].self).pointee.append(UInt(start)..<UInt(end))
                }, pointer)
        }
        return segments
    }

    /// A pagemap entry (bit 63 present, 62 swapped, 61 a page-cache or shared
    /// page) of a private copy: present but not from the file, or swapped.
    static func isPrivateCopy(_ entry: UInt64) -> Bool {
        let present = entry & (1 << 63) != 0
        let swapped = entry & (1 << 62) != 0
        let filePage = entry & (1 << 61) != 0
        return swapped || (present && !filePage)
    }

    /// `start-end perms offset dev inode path`: readable, not writable, backed
    /// by a file (not `[vdso]`, not a deleted file or a memfd).
    static func cleanFileMapping(_ line: ArraySlice<UInt8>) -> FileMapping? {
        var rest = line[...]
        guard let start = hex(&rest, until: "-"), let end = hex(&rest, until: " "), end > start,
            rest.count > 5, rest[rest.startIndex] == UInt8(ascii: "r"), rest[rest.startIndex + 1] != UInt8(ascii: "w")
        else { return nil }
        rest = rest.dropFirst(5)
        guard let offset = hex(&rest, until: " "), hex(&rest, until: ":") != nil, hex(&rest, until: " ") != nil,
            let inode = decimal(&rest, until: " ")
        else { return nil }
        let path = rest.drop { $0 == UInt8(ascii: " ") }
        guard path.first == UInt8(ascii: "/"), !endsWith(path, " (deleted)") else { return nil }
        return FileMapping(start: start, end: end, offset: offset, inode: inode)
    }

    /// The same, from text.
    static func cleanFileMapping(_ header: Substring) -> FileMapping? {
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
}
