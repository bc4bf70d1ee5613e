import Foundation
import RelavoiGLib
import XCTest

/// `KeyFile.set`: other keys, groups and comments stay; the file is replaced
/// by rename with the mode asked for; an unreadable file is left alone.
final class KeyFileWritingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testKeepsOtherKeysAndCommentsAndSetsTheMode() throws {
        let path = directory.appendingPathComponent("agent.conf").path
        let original = "# the user's note\n[agent]\n# about the key\napi-key = old\nmax-banners = 2\n\n[other]\nx = 1\n"
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o644)
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)

        try KeyFile.set([("api-key", "new"), ("tenant-id", "t 1")], group: "agent", path: path)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("# the user's note"), text)
        XCTAssertTrue(text.contains("# about the key\napi-key=new"), text)
        XCTAssertTrue(text.contains("max-banners = 2") || text.contains("max-banners=2"), text)
        XCTAssertTrue(text.contains("[other]"), text)
        let groups = try KeyFile.load(path: path)
        XCTAssertEqual(groups["agent"], ["api-key": "new", "max-banners": "2", "tenant-id": "t 1"])
        XCTAssertEqual(groups["other"], ["x": "1"])
        var after = stat()
        XCTAssertEqual(stat(path, &after), 0)
        XCTAssertEqual(after.st_mode & 0o777, 0o600)
        XCTAssertNotEqual(after.st_ino, before.st_ino, "a new file renamed over the old one")
    }

    func testMakesMissingDirectoriesPrivate() throws {
        let path = directory.appendingPathComponent("new/relavoi/agent.conf").path
        try KeyFile.set([("api-key", "k")], group: "agent", path: path, mode: 0o640)
        var info = stat()
        XCTAssertEqual(stat(directory.appendingPathComponent("new/relavoi").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o640)
        XCTAssertEqual(try KeyFile.load(path: path)["agent"], ["api-key": "k"])
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("new/relavoi").path)
        XCTAssertEqual(leftovers, ["agent.conf"], "no temporary file left behind")
    }

    func testAFileItCannotReadIsLeftUnchanged() throws {
        let path = directory.appendingPathComponent("agent.conf").path
        try "this is [not a key file\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try KeyFile.set([("api-key", "k")], group: "agent", path: path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot read \(path) (left unchanged): "), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "this is [not a key file\n")
    }
}
