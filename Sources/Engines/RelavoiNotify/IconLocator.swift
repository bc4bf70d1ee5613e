import FoundationEssentials
import RelavoiGLib

/// Names banner icons by theme name when they are installed, and by file path
/// when the agent runs from the build tree (uninstalled).
public struct IconLocator: Sendable {
    private let directories: [String]
    private let themeDirectories: [String]

    /// - Parameter iconRoot: a `hicolor` folder to search first; by default
    ///   an `icons/hicolor` above the executable.
    public init(iconRoot: String? = nil) {
        let environment = ProcessInfo.processInfo.environment
        var roots: [String] = []
        if let iconRoot { roots.append(iconRoot) }
        if let fromBuildTree = Self.buildTreeIcons() { roots.append(fromBuildTree) }
        directories = roots
        let dataDirs = (environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share").split(separator: ":")
        themeDirectories = dataDirs.map { "\($0)/icons/hicolor" }
    }

    /// A theme name when the theme has it, else a path to the SVG, else the name.
    public func resolve(_ name: String) -> String {
        let fileManager = FileManager.default
        for theme in themeDirectories {
            for folder in ["scalable/status", "scalable/apps"]
            where fileManager.fileExists(atPath: "\(theme)/\(folder)/\(name).svg") {
                return name
            }
        }
        for root in directories {
            for folder in ["scalable/status", "scalable/apps"] {
                let path = "\(root)/\(folder)/\(name).svg"
                if fileManager.fileExists(atPath: path) { return path }
            }
        }
        return name
    }

    /// `icons/hicolor` in a folder above the running executable (the repo when
    /// run as `.build/debug/relavoi-agent`).
    static func buildTreeIcons() -> String? {
        RunningExecutable.ancestor(holding: "icons/hicolor").map { $0 + "/icons/hicolor" }
    }
}
