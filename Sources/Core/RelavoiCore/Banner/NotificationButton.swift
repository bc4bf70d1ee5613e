/// One button of a notification: the action id the server reports back and its label.
public struct NotificationButton: Equatable, Sendable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}
