import XCTest

@testable import RelavoiNotify

/// Banner icons of an uninstalled agent: the repo's `icons/hicolor`, found
/// above the running program (here the test bundle in `.build/<triple>/debug`).
final class IconLocatorTests: XCTestCase {
    private let repo = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")

    func testTheBuildTreesIconsAreFoundAboveTheRunningProgram() {
        XCTAssertEqual(IconLocator.buildTreeIcons(), repo + "/icons/hicolor")
    }
}
