import Foundation
import RelavoiBanners
import RelavoiTestSupport
import XCTest

@testable import RelavoiSDK

/// The steps the tests against real notification servers (dunst, mako) share.
enum RealServerSteps {
    /// Starts a verified call's banner; `dismissed` gets its session id when
    /// the person closes it.
    static func startCall(
        _ sessionId: String, label: String, proxyNumber: String = "+2348000000001",
        dismissed: ResultBox<String>? = nil
    ) throws -> LiveActivityManager {
        try runOnLoop {
            let manager = LiveActivityManager()
            if let dismissed { manager.onDismissed = { dismissed.set(.success($0)) } }
            try await manager.start(
                sessionId: sessionId, proxyNumber: proxyNumber, otherPartyLabel: label, verified: true)
            return manager
        }
    }

    /// Waits for two more ticks of the banners' timer, then until the server
    /// has every update they made.
    static func waitForTwoTicks(_ ticks: Recorder, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = ticks.count
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { ticks.count >= before + 2 }, "the timer did not tick", file: file,
            line: line)
        try runOnLoop { await BannerDriver.shared.flush() }
    }

    /// Takes a screenshot with `take` (given a path) and checks a picture came of it.
    static func checkScreenshot(
        named name: String, _ take: (String) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        let shot = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-\(name)-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: shot) }
        XCTAssertTrue(take(shot), "a screenshot", file: file, line: line)
        let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
        XCTAssertGreaterThan(size, 1000, "a picture, not an empty file", file: file, line: line)
    }
}
