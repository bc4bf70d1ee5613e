import FoundationEssentials

/// What a left click on the item (`Activate`) does. With `open-url` set the
/// item is not a menu: the click opens the page of the call the label is
/// about (the menu stays on the right click). Without it the item is a menu
/// (`ItemIsMenu`) and hosts open the menu themselves.
public enum TrayActivation {
    public enum Outcome: Equatable, Sendable {
        case open(String)
        /// Nothing to open; the words say why (for the debug log).
        case nothing(String)
    }

    /// - Parameter metadata: the session metadata the agent knows for a call
    ///   (none so far: a template naming `{metadata.KEY}` then opens nothing).
    public static func outcome(
        template: OpenURLTemplate?, calls: [TrayCall], metadata: (String) -> [String: JSONValue] = { _ in [:] }
    ) -> Outcome {
        guard let template else { return .nothing("no open-url: the item is a menu") }
        guard let call = TrayItemView.focus(calls) else { return .nothing("no call shown") }
        guard let url = template.expand(sessionId: call.sessionId, metadata: metadata(call.sessionId)) else {
            return .nothing("open-url names session metadata the call does not have")
        }
        return .open(url)
    }
}
