import CGLib
import Glibc

/// The running program's file as the kernel names it (`/proc/self/exe`):
/// absolute, symlinks resolved, so `.build/debug/x` reads as
/// `.build/<triple>/debug/x`. What was built or installed beside the program
/// (other programs, icons, catalogs) is found from here.
public enum RunningExecutable {
    /// The path; `argv[0]` where /proc is not mounted.
    public static let path: String = {
        guard let target = g_file_read_link("/proc/self/exe", nil) else { return CommandLine.arguments.first ?? "" }
        defer { g_free(target) }
        return String(cString: target)
    }()

    /// The folder that holds the program.
    public static var folder: String { parent(of: path) }

    /// `relativePath` from the program's folder: a program built or installed beside it.
    public static func sibling(_ relativePath: String) -> String { folder + "/" + relativePath }

    /// The nearest folder at most `levels` above the program that holds
    /// `relativePath` (the repo, for `.build/<triple>/debug/relavoi-agent`).
    public static func ancestor(holding relativePath: String, levels: Int = 6) -> String? {
        var folder = path
        for _ in 0..<levels {
            folder = parent(of: folder)
            if g_file_test(folder + "/" + relativePath, G_FILE_TEST_EXISTS) != 0 { return folder }
        }
        return nil
    }

    /// The path without its last component (`/` stays `/`, a bare name is in `.`).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
