import Foundation
import RelavoiAgentKit
import RelavoiClient
import XCTest

/// The secret file is read only when nobody but its owner (this user) can read it.
final class SecretFileTests: XCTestCase {
    private let secret = TestCredentials.secret
    /// A user that is not us (Debian's nobody).
    private let stranger: uid_t = 65534

    func testPrivateFileIsReadWithoutTheTrailingNewline() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("secret", secret + "\n", mode: 0o600)
        XCTAssertEqual(try SecretFile.read(path: path), APISecret(secret))
        let readOnly = try directory.file("secret-ro", secret, mode: 0o400)
        XCTAssertEqual(try SecretFile.read(path: readOnly), APISecret(secret))
    }

    func testFileOthersCanReadIsRefusedWithAFix() throws {
        let directory = try TemporaryDirectory()
        for mode: mode_t in [0o644, 0o640, 0o604, 0o620, 0o602, 0o660] {
            let path = try directory.file("secret-\(String(mode, radix: 8))", secret, mode: mode)
            XCTAssertThrowsError(try SecretFile.read(path: path)) { error in
                let text = "\(error)"
                XCTAssertEqual(
                    text,
                    "secret file \(path): group or others may access it (mode \(String(mode, radix: 8))); refused. "
                        + "Make it private with: chmod 600 \(path)")
                XCTAssertFalse(text.contains(secret))
            }
        }
    }

    func testFileOfAnotherUserIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.file("secret", secret, mode: 0o600)
        // Checked against a uid that is not the owner (works without root).
        XCTAssertThrowsError(try SecretFile.read(path: path, uid: getuid() + 1)) { error in
            XCTAssertTrue("\(error)".contains("owned by another user"), "\(error)")
        }
        // A real other owner, when we may chown.
        guard getuid() == 0 else { throw XCTSkip("chown needs root") }
        XCTAssertEqual(chown(path, stranger, gid_t(stranger)), 0)
        XCTAssertThrowsError(try SecretFile.read(path: path)) { error in
            XCTAssertTrue("\(error)".contains("owned by another user (uid 65534)"), "\(error)")
            XCTAssertFalse("\(error)".contains(secret))
        }
    }

    func testSymlinks() throws {
        let directory = try TemporaryDirectory()
        let target = try directory.file("secret", secret, mode: 0o600)
        let link = directory.path + "/link"
        XCTAssertEqual(symlink(target, link), 0)
        XCTAssertEqual(try SecretFile.read(path: link), APISecret(secret), "a link of ours to our private file")

        let open = try directory.file("open", secret, mode: 0o644)
        let linkToOpen = directory.path + "/link-open"
        XCTAssertEqual(symlink(open, linkToOpen), 0)
        XCTAssertThrowsError(try SecretFile.read(path: linkToOpen)) { error in
            XCTAssertTrue("\(error)".contains("group or others may access it (mode 644)"), "\(error)")
        }

        guard getuid() == 0 else { throw XCTSkip("chown needs root") }
        let theirs = try directory.file("theirs", secret, mode: 0o600)
        XCTAssertEqual(chown(theirs, stranger, gid_t(stranger)), 0)
        let linkToTheirs = directory.path + "/link-theirs"
        XCTAssertEqual(symlink(theirs, linkToTheirs), 0)
        XCTAssertThrowsError(try SecretFile.read(path: linkToTheirs)) { error in
            XCTAssertTrue("\(error)".contains("owned by another user"), "\(error)")
        }
        // A link someone else owns, even to our own private file.
        let strangersLink = directory.path + "/strangers-link"
        XCTAssertEqual(symlink(target, strangersLink), 0)
        XCTAssertEqual(lchown(strangersLink, stranger, gid_t(stranger)), 0)
        XCTAssertThrowsError(try SecretFile.read(path: strangersLink)) { error in
            XCTAssertTrue("\(error)".contains("symlink owned by another user"), "\(error)")
        }
    }

    func testOtherUnusableFiles() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String)] = [
            (directory.path + "/missing", "cannot read it: No such file or directory"),
            (directory.path, "not a regular file"),
            (try directory.file("empty", " \n", mode: 0o600), "empty"),
            (try directory.file("big", String(repeating: "a", count: 5000), mode: 0o600), "larger than 4096 bytes"),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(try SecretFile.read(path: path), path) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        let binary = directory.path + "/binary"
        try Data([0xFF, 0xFE, 0x00, 0x41]).write(to: URL(fileURLWithPath: binary))
        chmod(binary, 0o600)
        XCTAssertThrowsError(try SecretFile.read(path: binary)) { error in
            XCTAssertTrue("\(error)".contains("not UTF-8 text"), "\(error)")
        }
        let fifo = directory.path + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try SecretFile.read(path: fifo)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }

    func testSecretNeverPrints() {
        let value = APISecret(secret)
        XCTAssertEqual("\(value)", "<redacted>")
        XCTAssertFalse(String(reflecting: value).contains(secret))
        var dumped = ""
        dump(value, to: &dumped)
        XCTAssertFalse(dumped.contains(secret), dumped)
    }
}
