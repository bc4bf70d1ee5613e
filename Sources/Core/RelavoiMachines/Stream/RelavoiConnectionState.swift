/// What the rest of the app sees of the stream.
public enum RelavoiConnectionState: String, Equatable, Sendable {
    /// Not wanted: never connected, or `disconnect()` was called.
    case disconnected
    /// Wanted but not live: fetching a token, handshaking, waiting for the
    /// welcome frame, or waiting to retry.
    case connecting
    /// Live: the server's `connected` frame arrived on the current socket.
    case connected
}
