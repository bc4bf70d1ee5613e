/// `gnome-top-bar = ask | on | off`: the person's answer to "Show Relavoi calls in the top
/// bar?" (the GNOME Shell extension). `ask` until they answer; `relavoi-agent login` and the
/// running agent write `on` or `off`, and nothing asks again after that.
public enum TopBarAnswer: String, Equatable, Sendable, CaseIterable {
    case ask, on, off
}
