import RelavoiGLib

/// Where the window's `.ui` files are: `window/ui/` of the source tree for a program in
/// `.build/` (and its icons in the tree's `icons/`), else `<prefix>/share/relavoi-agent/window/` for `<prefix>/bin/relavoi-window`.
package enum WindowDataFiles {
    package static let uiFile = "window.ui"

    package static var folder: String {
        if let root = RunningExecutable.ancestor(holding: "window/ui/" + uiFile) { return root + "/window/ui" }
        return RunningExecutable.folder + "/../share/relavoi-agent/window"
    }

    /// The source tree's `icons/` for a program in `.build/` (its own icons, such as
    /// `com.relavoi.Agent-symbolic`, are not in any installed theme then); nil when installed,
    /// where they are in `<prefix>/share/icons/hicolor`.
    package static var buildTreeIconFolder: String? {
        RunningExecutable.ancestor(holding: "icons/hicolor/scalable/apps/com.relavoi.Agent.svg").map { $0 + "/icons" }
    }
}
