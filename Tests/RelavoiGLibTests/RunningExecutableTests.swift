import Glibc
import XCTest

@testable import RelavoiGLib

/// `RunningExecutable` seen from the test bundle, which runs as
/// `.build/<triple>/debug/relavoi-agentPackageTests.xctest` in this repo.
final class RunningExecutableTests: XCTestCase {
    /// The repo, from this file's path (`Tests/RelavoiGLibTests/…`).
    private let repo = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    func testThePathIsTheResolvedRunningFile() throws {
        let path = RunningExecutable.path
        XCTAssertTrue(path.hasPrefix("/"), path)
        XCTAssertFalse(path.contains("/.build/debug/"), "symlinks resolved: \(path)")
        var file = stat()
        var running = stat()
        XCTAssertEqual(stat(path, &file), 0, path)
        XCTAssertEqual(stat("/proc/self/exe", &running), 0)
        XCTAssertEqual(file.st_ino, running.st_ino)
        XCTAssertEqual(file.st_dev, running.st_dev)
    }

    func testSiblingsAreInTheProgramsFolder() {
        XCTAssertEqual(RunningExecutable.sibling("relavoi-agent"), RunningExecutable.folder + "/relavoi-agent")
        XCTAssertEqual(access(RunningExecutable.sibling("relavoi-agent"), X_OK), 0, "built beside the tests")
    }

    func testTheNearestFolderAboveHoldingAFileIsTheRepo() {
        XCTAssertEqual(RunningExecutable.ancestor(holding: "Package.swift"), repo)
        XCTAssertNil(RunningExecutable.ancestor(holding: "Package.swift", levels: 1))
        XCTAssertNil(RunningExecutable.ancestor(holding: "no such file \(getpid())"))
    }

    func testParents() {
        XCTAssertEqual(RunningExecutable.parent(of: "/a/b/c"), "/a/b")
        XCTAssertEqual(RunningExecutable.parent(of: "/a"), "/")
        XCTAssertEqual(RunningExecutable.parent(of: "/"), "/")
        XCTAssertEqual(RunningExecutable.parent(of: "name"), ".")
    }
}
