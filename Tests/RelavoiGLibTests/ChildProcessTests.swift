import CGLib
import Glibc
import RelavoiGLib
import XCTest

/// What the agent's children inherit: its environment, with what it was
/// given for itself (`G_SLICE` from the unit) withheld.
final class ChildProcessTests: XCTestCase {
    func testAChildGetsTheGivenEnvironmentButNotGSlice() async throws {
        setenv("G_SLICE", "always-malloc", 1)
        defer { unsetenv("G_SLICE") }
        let line = try await MainActor.run {
            let child = try ChildProcess(
                argv: ["/bin/sh", "-c", #"echo "env: ${G_SLICE-unset} ${RELAVOI_GIVEN-unset}""#],
                environment: ["RELAVOI_GIVEN": "yes"])
            return child.readLine(startingWith: "env: ", timeout: 30)
        }
        XCTAssertEqual(line, "unset yes")
    }
}
