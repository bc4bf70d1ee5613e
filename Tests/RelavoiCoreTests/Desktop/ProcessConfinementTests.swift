import RelavoiCore
import RelavoiMachines
import XCTest

final class ProcessConfinementTests: XCTestCase {
    func testAnUnconfinedProcess() {
        let status = "Name:\trelavoi-agent\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n"
        XCTAssertEqual(
            ProcessConfinement(procStatus: status), ProcessConfinement(noNewPrivileges: false, seccompFilter: false))
        XCTAssertFalse(ProcessConfinement(procStatus: status).passesToChildren)
    }

    func testTheUnitsConfinementPassesToChildren() {
        // As /proc/self/status reads under relavoi-agent.service.
        let status = "Name:\trelavoi-agent\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t26\n"
        XCTAssertEqual(
            ProcessConfinement(procStatus: status), ProcessConfinement(noNewPrivileges: true, seccompFilter: true))
        XCTAssertTrue(ProcessConfinement(procStatus: "NoNewPrivs:\t1\n").passesToChildren)
        XCTAssertTrue(ProcessConfinement(procStatus: "Seccomp:\t2\n").passesToChildren)
    }

    func testStrictModeAndMissingLinesAreNotAFilter() {
        // Seccomp 1 is strict mode (a process that can hardly start anything); an
        // unreadable or odd file counts as unconfined, as before the unit had any.
        XCTAssertFalse(ProcessConfinement(procStatus: "Seccomp:\t1\n").passesToChildren)
        XCTAssertFalse(ProcessConfinement(procStatus: "").passesToChildren)
        XCTAssertFalse(ProcessConfinement(procStatus: "NoNewPrivs 1\nSeccomp").passesToChildren)
    }
}
