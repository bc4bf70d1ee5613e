/// What a process started by this one inherits of its confinement, from the
/// kernel's `/proc/self/status`: `NoNewPrivs` and a seccomp filter (`Seccomp`
/// 2) pass to every child, so a browser the agent started itself would run
/// under the agent's unit (no JIT under `MemoryDenyWriteExecute`).
public struct ProcessConfinement: Equatable, Sendable {
    public var noNewPrivileges: Bool
    public var seccompFilter: Bool

    public init(noNewPrivileges: Bool, seccompFilter: Bool) {
        self.noNewPrivileges = noNewPrivileges
        self.seccompFilter = seccompFilter
    }

    /// Reads the `NoNewPrivs:` and `Seccomp:` lines; a missing line counts as off.
    public init(procStatus: String) {
        var noNewPrivileges = false
        var seccompFilter = false
        for line in procStatus.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].filter { $0 != " " && $0 != "\t" }
            switch line[..<colon] {
            case "NoNewPrivs": noNewPrivileges = value == "1"
            case "Seccomp": seccompFilter = value == "2"
            default: continue
            }
        }
        self.init(noNewPrivileges: noNewPrivileges, seccompFilter: seccompFilter)
    }

    /// Whether a child would be confined too: then it should be started by
    /// something outside (the desktop portal, the user's service manager).
    public var passesToChildren: Bool { noNewPrivileges || seccompFilter }
}
