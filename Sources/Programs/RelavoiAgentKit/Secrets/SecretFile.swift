import FoundationEssentials
import Glibc
import RelavoiClient
import RelavoiCore

/// Reads the API secret from a file that only its owner (this user) can read.
/// Refused: a file that group or others may read or write, a file owned by
/// another user (also through a symlink: the opened file is checked), a
/// symlink owned by another user, anything but a regular file. Errors name the
/// path and the reason, never the content.
public enum SecretFile {
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "secret file \(path): \(reason)" }
    }

    /// Enough for any secret; a larger file is not one.
    public static let maximumSize = 4096

    /// The secret: the file's text without surrounding whitespace (a trailing newline is usual).
    public static func read(path: String, uid: uid_t = getuid()) throws(Refusal) -> APISecret {
        func refuse(_ reason: String) -> Refusal { Refusal(path: path, reason: reason) }
        var link = stat()
        guard lstat(path, &link) == 0 else { throw refuse("cannot read it: \(errnoText())") }
        if link.st_mode & S_IFMT == S_IFLNK, link.st_uid != uid {
            throw refuse("it is a symlink owned by another user (uid \(link.st_uid)); refused")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw refuse("cannot open it: \(errnoText())") }
        defer { close(fd) }
        // Check what was opened, not the name (it may have changed meanwhile).
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw refuse("cannot stat it: \(errnoText())") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refuse("not a regular file; refused") }
        guard info.st_uid == uid else {
            throw refuse("owned by another user (uid \(info.st_uid)), not by you (uid \(uid)); refused")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw refuse(
                "group or others may access it (mode \(String(mode, radix: 8))); refused. "
                    + "Make it private with: chmod 600 \(path)")
        }
        guard info.st_size <= maximumSize else { throw refuse("larger than \(maximumSize) bytes; refused") }

        var bytes = [UInt8](repeating: 0, count: maximumSize + 1)
        var length = 0
        while length < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress! + length, $0.count - length)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw refuse("cannot read it: \(errnoText())") }
            if count == 0 { break }
            length += count
        }
        defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        guard length <= maximumSize else { throw refuse("larger than \(maximumSize) bytes; refused") }
        guard let text = String(validating: bytes[..<length], as: UTF8.self) else {
            throw refuse("not UTF-8 text")
        }
        let secret = text.trimmingWhitespace()
        guard !secret.isEmpty else { throw refuse("empty") }
        return APISecret(secret)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
