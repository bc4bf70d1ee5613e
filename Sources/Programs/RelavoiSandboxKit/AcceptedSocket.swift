import CGLib
import CSoup
import Foundation
import RelavoiGLib

/// A just-upgraded WebSocket, handed from libsoup's callback to the server.
struct AcceptedSocket: @unchecked Sendable {
    let connection: OpaquePointer
    let socket: UnsafeMutablePointer<GSocket>?
}
