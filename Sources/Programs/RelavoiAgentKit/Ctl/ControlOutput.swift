import FoundationEssentials
import Glibc
import RelavoiGLib

/// Where `ctl` writes: stdout for results, stderr for errors. Tests capture both.
public struct ControlOutput: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// Lines to the process's stdout and stderr.
    public static let standard = ControlOutput(
        out: { StandardStreams.output(($0 + "\n")) },
        err: { StandardStreams.error(($0 + "\n")) })
}
