import Foundation
import XCTest

@testable import RelavoiGLib

/// Unmapping clean file pages: only the loaded objects' read-only segments,
/// without private copies, go, and what goes comes back on use.
final class ResidentFilePagesTests: XCTestCase {
    func testHeaderParsing() {
        let code = ResidentFilePages.cleanFileMapping(
            "7f1c2a000000-7f1c2a200000 r-xp 00028000 fd:01 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6"
        )
        XCTAssertEqual(code?.start, 0x7f1c_2a00_0000)
        XCTAssertEqual(code?.end, 0x7f1c_2a20_0000)
        XCTAssertEqual(code?.offset, 0x28000)
        XCTAssertEqual(code?.inode, 1234)
        XCTAssertNotNil(ResidentFilePages.cleanFileMapping("00400000-00401000 r--s 00000000 fd:01 9 /tmp/a file"))
        for header in [
            "7f1c2a000000-7f1c2a200000 rw-p 00028000 fd:01 1234 /usr/lib/libc.so.6",  // writable
            "7ffd1000-7ffd3000 r-xp 00000000 00:00 0                          [vdso]",  // not a file
            "7f00-7f10 r--p 00000000 00:00 0",  // anonymous
            "7f00-7f10 ---p 00000000 fd:01 1 /usr/lib/libx.so",  // a guard
            "7f00-7f10 r--s 00000000 00:01 5 /memfd:pool (deleted)",  // no file behind it
        ] {
            XCTAssertNil(ResidentFilePages.cleanFileMapping(Substring(header)), header)
        }
    }

    /// Only the parts of maps' clean file mappings inside a loaded object's
    /// read-only segment are released: a plain file's mapping, an anonymous
    /// one now at a file's old address, or a loaded object's writable data are
    /// not, whatever maps says.
    func testReleasableAreTheLoadedObjectsCleanSegments() {
        let maps = """
            00400000-00401000 r--p 00000000 fd:01 7                          /usr/bin/agent
            00401000-00480000 r-xp 00001000 fd:01 7                          /usr/bin/agent
            00480000-00482000 r--p 00080000 fd:01 7                          /usr/bin/agent
            00482000-00483000 rw-p 00082000 fd:01 7                          /usr/bin/agent
            7f0000000000-7f0000100000 r--p 00000000 fd:01 20                         /usr/lib/locale/locale-archive
            7f0000100000-7f0000104000 rw-p 00000000 00:00 0
            7f0000200000-7f0000228000 r--p 00000000 fd:01 30                         /usr/lib/libc.so.6
            7f0000228000-7f00003bd000 r-xp 00028000 fd:01 30                         /usr/lib/libc.so.6

            """
        let segments: [Range<UInt>] = [
            0x40_0000..<0x40_1000, 0x40_1000..<0x48_0000,
            0x48_0000..<0x48_3000,  // in the file's data segment: its RELRO part reads r--p, its rest rw-p
            0x7f00_0010_0000..<0x7f00_0010_4000,  // anonymous now
            0x7f00_0020_0000..<0x7f00_0030_0000,  // ends inside libc's code mapping
        ]
        let releasable = ResidentFilePages.releasable(maps: Array(maps.utf8), segments: segments)
        XCTAssertEqual(
            releasable,
            [
                0x40_0000..<0x40_1000, 0x40_1000..<0x48_0000, 0x48_0000..<0x48_2000,
                0x7f00_0020_0000..<0x7f00_0022_8000, 0x7f00_0022_8000..<0x7f00_0030_0000,
            ])
        XCTAssertFalse(releasable.contains { $0.overlaps(0x7f00_0000_0000..<0x7f00_0010_4000) }, "not a loaded object")
    }

    /// Present pages from the file are released, private copies (present,
    /// not from the file, or swapped out) are not.
    func testPagemapEntries() {
        XCTAssertFalse(ResidentFilePages.isPrivateCopy(0), "not present")
        XCTAssertFalse(ResidentFilePages.isPrivateCopy(1 << 63 | 1 << 61), "a page-cache page")
        XCTAssertTrue(ResidentFilePages.isPrivateCopy(1 << 63), "a private copy")
        XCTAssertTrue(ResidentFilePages.isPrivateCopy(1 << 62), "swapped out")
    }

    /// The race the release must not lose: a plain file's mapping released
    /// once, then unmapped and its address reused by anonymous memory with
    /// data, before a release that still reads the old maps. The old code
    /// released every clean file mapping it had judged and zeroed the data.
    func testMemoryMappedOverAReleasedFileKeepsItsData() throws {
        let file = try PlainFile(pages: 4)
        defer { withExtendedLifetime(file) {} }  // its fd stays open to the end
        let (fd, path, length) = (file.fd, file.path, file.length)
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            return XCTFail("mmap: \(errno)")
        }
        defer { munmap(mapped, length) }
        let pages = ResidentFilePages()
        XCTAssertGreaterThan(pages.release(), 0)
        let staleMaps = ProcFile.bytes("/proc/self/maps") ?? []
        XCTAssertTrue(String(decoding: staleMaps, as: UTF8.self).contains(path), "the stale maps names the file")
        guard
            let reused = mmap(mapped, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
            reused == mapped
        else { return XCTFail("mmap MAP_FIXED: \(errno)") }
        memset(reused, 0x5A, length)
        XCTAssertEqual(mprotect(reused, length, PROT_READ), 0)
        XCTAssertGreaterThan(pages.release(maps: staleMaps), 0, "the loaded objects were released")
        let bytes = UnsafeRawBufferPointer(start: reused, count: length)
        XCTAssertTrue(bytes.allSatisfy { $0 == 0x5A }, "the anonymous data survived the release")
    }

    /// A loaded library's code is released; a plain file's clean mapping is
    /// not (another thread could unmap it at any time); a private copy in a
    /// now read-only mapping keeps its contents.
    func testLoadedCodeIsReleasedAndPlainFilesAreNot() throws {
        let file = try PlainFile(pages: 4)
        defer { withExtendedLifetime(file) {} }  // its fd stays open to the end
        let (fd, length) = (file.fd, file.length)
        guard let copied = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0), copied != MAP_FAILED,
            let clean = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), clean != MAP_FAILED
        else { return XCTFail("mmap: \(errno)") }
        defer {
            munmap(copied, length)
            munmap(clean, length)
        }
        copied.storeBytes(of: 0x5A, as: UInt8.self)
        XCTAssertEqual(mprotect(copied, length, PROT_READ), 0)
        XCTAssertEqual(clean.load(as: UInt8.self), 0x41)
        // A loaded library this test does not run: GIO, linked by RelavoiGLib.
        guard let gio = Self.mapping(named: "libgio-2.0.so", permissions: "r-xp") else {
            return XCTFail("libgio's code is not mapped")
        }
        _ = gio.load(as: UInt8.self)
        XCTAssertGreaterThan(Self.residentKiB(of: gio) ?? 0, 0, "GIO's first code page is mapped before")

        let pages = ResidentFilePages()
        XCTAssertGreaterThan(pages.release(), length, "the loaded objects' clean segments were released")
        XCTAssertEqual(Self.residentKiB(of: gio), 0, "GIO's code among them")
        XCTAssertGreaterThan(Self.residentKiB(of: clean) ?? 0, 0, "the plain file's clean mapping was not")
        XCTAssertEqual(copied.load(as: UInt8.self), 0x5A, "the private copy was kept")
        XCTAssertEqual(clean.load(as: UInt8.self), 0x41)
        _ = gio.load(as: UInt8.self)
        XCTAssertGreaterThan(Self.residentKiB(of: gio) ?? 0, 0, "GIO's code maps again on use")
    }

    /// The start of the first mapping with `permissions` of a file whose path contains `name`.
    static func mapping(named name: String, permissions: String) -> UnsafeMutableRawPointer? {
        for line in (ProcFile.read("/proc/self/maps") ?? "").split(separator: "\n") where line.contains(name) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 1, fields[1] == permissions, let start = fields[0].split(separator: "-").first,
                let address = UInt(start, radix: 16)
            else { continue }
            return UnsafeMutableRawPointer(bitPattern: address)
        }
        return nil
    }

    /// `Rss:` of the mapping that starts at `address`, from /proc/self/smaps.
    static func residentKiB(of address: UnsafeMutableRawPointer) -> Int? {
        let smaps = ProcFile.read("/proc/self/smaps") ?? ""
        let start = String(UInt(bitPattern: address), radix: 16)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if line.first?.isHexDigit == true, line.contains("-"), !line.hasSuffix(" kB") {
                inMapping = line.hasPrefix(start + "-")
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }
}

/// A plain file of whole pages of 0x41, opened read-only; closed and removed
/// when the test lets go of it.
private final class PlainFile {
    let fd: Int32
    let path: String
    let length: Int

    init(pages: Int) throws {
        length = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID().uuidString)").path
        try Data(repeating: 0x41, count: length).write(to: URL(fileURLWithPath: path))
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw POSIXError(.ENOENT) }
    }

    deinit {
        close(fd)
        unlink(path)
    }
}
