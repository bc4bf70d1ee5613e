/// Relavoi's icon in the icon theme (icons/hicolor, installed as `com.relavoi.Agent`): the
/// window's, and that of the agent's banners and notices that are not about a call's badge.
public enum RelavoiIcon {
    public static let name = "com.relavoi.Agent"
}
