/// Takes the API secret and the current socket token out of any text
/// before it is logged, even when a library message quoted them.
public struct SecretScrubber: Sendable {
    public let apiSecret: String
    /// The token the current socket was opened with (it travels in the URL).
    public var socketToken: String?

    public init(apiSecret: String, socketToken: String? = nil) {
        self.apiSecret = apiSecret
        self.socketToken = socketToken
    }

    public func scrub(_ text: String) -> String {
        var text = text
        if !apiSecret.isEmpty, text.contains(apiSecret) {
            text = text.replacing(apiSecret, with: "<secret>")
        }
        if let socketToken, !socketToken.isEmpty, text.contains(socketToken) {
            text = text.replacing(socketToken, with: "<token>")
        }
        return text
    }
}
