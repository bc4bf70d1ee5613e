/// `kde-panel = ask | on | off`: the person's answer to "Show calls in the panel?" (the
/// Plasma widget com.relavoi.call). `ask` until they answer; the running agent writes `on`
/// or `off`, and nothing asks again after that.
public enum PlasmaPanelAnswer: String, Equatable, Sendable, CaseIterable {
    case ask, on, off
}
