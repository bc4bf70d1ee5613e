import Foundation
import Glibc
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// Kernel files report a size of 0: `ProcFile` reads them, and any file, to the end.
final class ProcFileTests: XCTestCase {
    func testAProcFileIsReadWhole() throws {
        let status = try XCTUnwrap(ProcFile.read("/proc/self/status"))
        XCTAssertTrue(status.hasPrefix("Name:"), status)
        let fields = ProcFile.fields(status)
        XCTAssertEqual(fields["Pid"], Int(getpid()))
        XCTAssertGreaterThan(fields["VmRSS"] ?? 0, 0, "the kB figure is read as a number")
        XCTAssertNotNil(fields["nonvoluntary_ctxt_switches"], "the last line is there: \(status.suffix(200))")
    }

    func testAFileLongerThanTheBufferComesBackByteForByte() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("procfile-\(getpid())").path
        defer { unlink(path) }
        let written = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(written)))
        XCTAssertEqual(ProcFile.bytes(path), written)
    }

    func testAMissingFileIsNil() {
        XCTAssertNil(ProcFile.bytes("/proc/self/no such file"))
        XCTAssertNil(ProcFile.read("/proc/self/no such file"))
    }

    func testFieldsSkipLinesWithoutANumber() {
        XCTAssertEqual(
            ProcFile.fields("Name:\trelavoi\nVmRSS:\t   1234 kB\nThreads:\t3\nno colon 5\nRss: x kB"),
            ["VmRSS": 1234, "Threads": 3])
    }
}
