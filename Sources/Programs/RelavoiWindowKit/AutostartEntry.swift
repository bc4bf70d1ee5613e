import FoundationEssentials
import RelavoiGLib

/// "Start at login" for this person: the XDG way to turn off a system-wide autostart
/// entry is an entry of the same name in `~/.config/autostart` with `Hidden=true`
/// (GNOME, KDE and systemd's xdg-autostart generator all honour it); the user unit is
/// disabled or enabled with it.
package enum AutostartEntry {
    package static let fileName = "com.relavoi.Agent.desktop"
    package static var path: String { KeyFile.userConfigDirectory + "/autostart/" + fileName }

    package static var isOn: Bool {
        let group = (try? KeyFile.load(path: path))?["Desktop Entry"]
        return group?["Hidden"]?.lowercased() != "true"
    }

    /// Whether the person chose (a file of theirs exists).
    package static var isPersonal: Bool { FileManager.default.fileExists(atPath: path) }

    @MainActor
    package static func set(_ on: Bool) throws(KeyFile.WriteError) {
        if on {
            try? FileManager.default.removeItem(atPath: path)
        } else {
            try KeyFile.set(
                [("Type", "Application"), ("Name", "Relavoi"), ("Exec", "relavoi-agent"), ("Hidden", "true")],
                group: "Desktop Entry", path: path, mode: 0o644)
        }
        ProgramRun.run(["systemctl", "--user", on ? "enable" : "disable", "relavoi-agent.service"]) { _ in }
    }
}
