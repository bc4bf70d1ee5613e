import FoundationEssentials

/// What a left click on the item (`Activate`) does. With `open-url` set the
/// item is not a menu: the click opens the page of the call the label is
/// about (the menu stays on the right click), as the banner's click and
/// D-Bus `Open` do. Without it the item is a menu (`ItemIsMenu`) and hosts
/// open the menu themselves.
public enum TrayActivation {
    public enum Outcome: Equatable, Sendable {
        /// Open this call's page (the agent expands `open-url` with what it knows of the session).
        case open(sessionId: String)
        /// Nothing to open; the words say why (for the debug log).
        case nothing(String)
    }

    public static func outcome(opensPages: Bool, calls: [TrayCall]) -> Outcome {
        guard opensPages else { return .nothing("no open-url: the item is a menu") }
        guard let call = TrayItemView.focus(calls) else { return .nothing("no call shown") }
        return .open(sessionId: call.sessionId)
    }
}
