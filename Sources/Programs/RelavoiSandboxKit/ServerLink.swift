import CGLib

/// Context of the server-wide C callbacks: a weak link back to the server.
/// Passed retained; the GDestroyNotify releases it.
final class ServerLink: @unchecked Sendable {
    weak var server: SandboxServer?
    init(_ server: SandboxServer) { self.server = server }

    func retainedPointer() -> gpointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ pointer: gpointer) -> ServerLink {
        Unmanaged<ServerLink>.fromOpaque(pointer).takeUnretainedValue()
    }

    static let destroy: GDestroyNotify = { pointer in
        if let pointer { Unmanaged<ServerLink>.fromOpaque(pointer).release() }
    }
}
