/// Where the Relavoi window (`relavoi-window`) is: its application id, which is also its desktop
/// file's name and its D-Bus name, and the pages the agent can open it on.
public enum RelavoiWindowAddress {
    public static let applicationID = "com.relavoi.Agent.Settings"
    /// Where GApplication serves `org.freedesktop.Application` and its actions.
    public static let objectPath = "/com/relavoi/Agent/Settings"
    /// `app.show-page(s)`: opens the window on one page.
    public static let showPageAction = "show-page"

    public enum Page: String, Sendable, CaseIterable {
        case signIn = "sign-in"
        case status
        case settings
    }
}
