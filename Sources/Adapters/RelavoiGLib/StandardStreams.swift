import Glibc

/// Writing to stdout and stderr without Foundation's FileHandle (no ICU):
/// unbuffered, whole text, as FileHandle.write did.
public enum StandardStreams {
    public static func output(_ text: String) { write(text, to: 1) }
    public static func error(_ text: String) { write(text, to: 2) }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
