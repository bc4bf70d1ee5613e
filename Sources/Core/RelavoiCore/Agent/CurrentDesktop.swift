/// The desktop this session runs, as `XDG_CURRENT_DESKTOP` names it (a colon-separated
/// list, e.g. `ubuntu:GNOME`): the one reading by which the agent offers GNOME's top bar or
/// the KDE panel and the window shows their settings.
public struct CurrentDesktop: Equatable, Sendable {
    /// The names, upper-cased, in order.
    public let names: [String]

    public init(environment: [String: String]) {
        names = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
    }

    /// GNOME Shell's desktop: GNOME, GNOME Classic, Ubuntu's and others name GNOME; Budgie
    /// (`Budgie:GNOME`) and GNOME Flashback (`GNOME-Flashback:GNOME`) do too, with no GNOME
    /// Shell (no top bar extension, no lock-screen card).
    public var isGNOME: Bool {
        names.contains("GNOME") && !names.contains("BUDGIE") && !names.contains("GNOME-FLASHBACK")
    }

    /// KDE Plasma.
    public var isKDE: Bool { names.contains("KDE") }
}
