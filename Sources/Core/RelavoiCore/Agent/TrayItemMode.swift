import FoundationEssentials

/// `tray-item = auto | on | off`: `auto` keeps the item Passive while the
/// GNOME Shell extension (`com.relavoi.Agent.ShellIndicator` on the bus) or
/// the KDE Plasma widget (`ShowingCalls`) shows the calls; `on` shows it
/// anyway; `off` exports no item at all.
public enum TrayItemMode: String, Equatable, Sendable, CaseIterable {
    case auto, on, off
}
