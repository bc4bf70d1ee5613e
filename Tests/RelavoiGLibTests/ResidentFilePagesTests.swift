import Foundation
import XCTest

@testable import RelavoiGLib

/// Unmapping clean file pages: only readable, unwritable, file-backed
/// mappings without private copies go, and what goes comes back on use.
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

    /// smaps' mapping lines are told from its field lines by their start: a
    /// path that ends as a field does ("kB", or a UUID's last "B") is still a
    /// mapping, and its fields are not taken for the one before it.
    func testSmapsJudgedWhateverAPathEndsWith() {
        let smaps = """
            7f0000000000-7f0000004000 r--p 00000000 fd:01 11                         /tmp/pages-1 kB
            Size:                 16 kB
            Rss:                  16 kB
            Anonymous:             0 kB
            Swap:                  0 kB
            VmFlags: rd mr mw me
            7f0000004000-7f0000008000 r--p 00000000 fd:01 12                         /tmp/pages-E5B
            Size:                 16 kB
            Anonymous:             4 kB
            Swap:                  0 kB
            7f0000008000-7f000000c000 r-xp 00001000 fd:01 13                         /usr/lib/libz.so.1
            Size:                 16 kB
            Anonymous:             0 kB
            Swap:                  0 kB
            7f000000c000-7f0000010000 rw-p 00000000 00:00 0
            Anonymous:            16 kB

            """
        let judged = ResidentFilePages.judged(smaps: Array(smaps.utf8))
        XCTAssertEqual(judged.clean.map(\.inode).sorted(), [11, 13], "clean, whatever the path ends with")
        XCTAssertEqual(judged.kept.map(\.inode), [12], "its private copy keeps it, and only it")
    }

    /// A private copy in a now read-only mapping (what relocated RELRO data
    /// is) keeps its contents; a clean mapping reads the file again.
    func testPrivateCopiesSurviveAndCleanPagesComeBack() throws {
        // A name that ends as smaps' field lines do ("Rss: 16 kB"): such a mapping was never released before.
        let name = "pages-\(UUID().uuidString)-kB"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        try Data(repeating: 0x41, count: pageSize * 4).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let length = pageSize * 4
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
        XCTAssertGreaterThan(Self.residentKiB(of: clean) ?? 0, 0, "the clean page is mapped before")

        var pages = ResidentFilePages()
        XCTAssertGreaterThan(pages.release(), length, "the clean mappings were released")
        XCTAssertEqual(Self.residentKiB(of: clean), 0, "the test's own clean mapping among them")
        XCTAssertEqual(copied.load(as: UInt8.self), 0x5A, "the private copy was kept")
        XCTAssertEqual(clean.load(as: UInt8.self), 0x41, "the clean page reads the file again")
        XCTAssertGreaterThan(Self.residentKiB(of: clean) ?? 0, 0, "and is mapped again")
        XCTAssertGreaterThan(pages.release(), length, "a second release, from what the first judged")
        XCTAssertEqual(Self.residentKiB(of: clean), 0, "released again")
        XCTAssertEqual(copied.load(as: UInt8.self), 0x5A, "still kept")
    }

    /// `Rss:` of the mapping that starts at `address`, from /proc/self/smaps.
    static func residentKiB(of address: UnsafeMutableRawPointer) -> Int? {
        // Read to the end: /proc files say they are empty.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        defer { try? file.close() }
        let smaps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
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
