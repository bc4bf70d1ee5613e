import Foundation
import RelavoiGLib
import RelavoiTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A bare, non-blocking TCP client to 127.0.0.1 for what libsoup's client
/// will not do: misbehave (garbage, huge requests, never answering pings).
/// Every wait iterates the GLib loop so the in-process server keeps running.
final class RawSocket {
    private let fd: Int32
    private(set) var received = Data()
    private(set) var sawEOF = false

    init?(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { Glibc.close(fd) }

    /// Writes all of `data`, running the loop while the kernel buffer is full.
    /// Returns false if the peer closed or `timeout` passed.
    @discardableResult
    func write(_ data: Data, timeout: Double = 10) -> Bool {
        var offset = 0
        let deadline = Date().addingTimeInterval(timeout)
        while offset < data.count {
            let written = data.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if Date() > deadline { return false }
                pump()
                LoopWait.until(timeout: 0.01) { false }
            } else {
                return false
            }
        }
        return true
    }

    func write(_ text: String) { write(Data(text.utf8)) }

    /// Reads what is available without blocking.
    func pump() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else {
                if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { sawEOF = true }
                return
            }
        }
    }

    /// Runs the loop, reading, until `done` or `timeout`.
    @discardableResult
    func wait(timeout: Double, until done: (RawSocket) -> Bool) -> Bool {
        LoopWait.until(timeout: timeout) {
            pump()
            return done(self)
        }
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// Server-to-client WebSocket frames in `received` after the HTTP head:
    /// (opcode, payload). Unmasked, as a server sends them.
    var frames: [(opcode: UInt8, payload: Data)] {
        guard let head = received.range(of: Data("\r\n\r\n".utf8)) else { return [] }
        var bytes = received[head.upperBound...]
        var result: [(UInt8, Data)] = []
        while bytes.count >= 2 {
            let start = bytes.startIndex
            let opcode = bytes[start] & 0x0f
            var length = Int(bytes[start + 1] & 0x7f)
            var at = 2
            if length == 126 {
                guard bytes.count >= 4 else { break }
                length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
                at = 4
            } else if length == 127 {
                break
            }
            guard bytes.count >= at + length else { break }
            result.append((opcode, Data(bytes[(start + at)..<(start + at + length)])))
            bytes = bytes[(start + at + length)...]
        }
        return result
    }

    static func upgradeRequest(path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }
}
