import CGLib
import CSoup

/// A GLib/libsoup failure, copied out of its `GError`.
public struct SoupError: Error, Equatable, Sendable, CustomStringConvertible {
    public let domain: String
    public let code: Int32
    public let message: String

    public init(domain: String = "relavoi", code: Int32 = 0, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Takes ownership of `error` (frees it).
    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            self.init(message: "unknown error")
            return
        }
        let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "?"
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        let code = error.pointee.code
        g_error_free(error)
        self.init(domain: domain, code: code, message: message)
    }

    public var isCancelled: Bool {
        domain == "g-io-error-quark" && code == Int32(G_IO_ERROR_CANCELLED.rawValue)
    }

    /// A TLS failure (bad or untrusted certificate, handshake error).
    public var isTLS: Bool { domain == "g-tls-error-quark" }

    public var description: String { message }
}
