import Foundation
import RelavoiGLib
import RelavoiTestSupport

/// A pseudo-terminal for driving a command as a person at a terminal would:
/// the child gets the slave side as stdin, stdout and stderr; the test reads
/// what it prints from the master side and types answers into it.
final class PseudoTerminal {
    let master: Int32
    let slavePath: String
    /// The slave side, kept open here to read its termios (is echo off?).
    private let observer: Int32
    /// Everything the child printed (and the terminal echoed) so far.
    private(set) var output = ""

    struct Failure: Error, CustomStringConvertible { let description: String }

    init() throws {
        // glibc declares these only under _XOPEN_SOURCE, which Swift's Glibc module lacks.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias OnMaster = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func function<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                throw Failure(description: "no \(name) in libc")
            }
            return unsafeBitCast(symbol, to: type)
        }
        let openPT = try function("posix_openpt", OpenPT.self)
        let grant = try function("grantpt", OnMaster.self)
        let unlock = try function("unlockpt", OnMaster.self)
        let ptsName = try function("ptsname", PTSName.self)
        master = openPT(O_RDWR | O_NOCTTY)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, let name = ptsName(master) else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slavePath = String(cString: name)
        observer = open(slavePath, O_RDWR | O_NOCTTY)
        guard observer >= 0 else { throw Failure(description: "cannot open \(slavePath)") }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(observer)
        close(master)
    }

    /// A fresh handle on the slave side for a child's standard streams.
    func slaveHandle() throws -> FileHandle {
        let fd = open(slavePath, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw Failure(description: "cannot open \(slavePath)") }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Whether the terminal echoes what is typed (login turns it off for the secret).
    var echoes: Bool {
        var settings = termios()
        guard tcgetattr(observer, &settings) == 0 else { return true }
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if count > 0 { written += count } else if errno != EAGAIN && errno != EINTR { return }
        }
    }

    /// Turns the GLib loop (in-process servers keep serving) until
    /// `condition` holds for the output read so far, or `timeout` passes.
    @discardableResult
    func wait(timeout: Double = 30, until condition: (String) -> Bool) -> Bool {
        LoopWait.until(timeout: timeout) {
            drain()
            return condition(output)
        }
    }

    /// Waits until `text` has been printed `count` times in all.
    @discardableResult
    func wait(for text: String, count: Int = 1, timeout: Double = 30) -> Bool {
        wait(timeout: timeout) { $0.components(separatedBy: text).count - 1 >= count }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            output += String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
}
