/// What the agent's children (the demo's sandbox, the clipboard tool, the
/// browser a click opens) do not inherit from it.
public enum ChildEnvironment {
    /// `G_SLICE=always-malloc` is set for the agent by its systemd unit and
    /// autostart entry (GLib 2.74's slice allocator kept growing over hours);
    /// it is the agent's own tuning, not something to hand a browser.
    public static let withheld = ["G_SLICE"]
}
