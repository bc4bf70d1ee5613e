import RelavoiGLib

/// Where the window's `.ui` files are: `window/ui/` of the source tree for a program in
/// `.build/`, else `<prefix>/share/relavoi-agent/window/` for `<prefix>/bin/relavoi-window`.
package enum WindowDataFiles {
    package static let uiFile = "window.ui"

    package static var folder: String {
        if let root = RunningExecutable.ancestor(holding: "window/ui/" + uiFile) { return root + "/window/ui" }
        return RunningExecutable.folder + "/../share/relavoi-agent/window"
    }
}
