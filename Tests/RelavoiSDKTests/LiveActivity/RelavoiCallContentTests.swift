import Foundation
import RelavoiCore
import RelavoiMachines
import XCTest

@testable import RelavoiSDK

/// The content helpers say what the agent's banner says.
final class RelavoiCallContentTests: XCTestCase {
    private let attributes = RelavoiCallAttributes(
        sessionId: "ses_1", proxyNumber: "+2348000000001", startedAt: Date(timeIntervalSince1970: 1_000))

    func testTextsAndIconsMatchTheRenderedBanner() {
        for verified in [true, false] {
            let state = RelavoiCallAttributes.State(
                elapsedSeconds: 3725, verified: verified, otherPartyLabel: "Chowdeck\u{202E} rider\n")
            let content = RelavoiCallContent(attributes: attributes, state: state)
            let snapshot = BannerSnapshot(
                kind: .active, label: state.otherPartyLabel, proxyNumber: attributes.proxyNumber,
                verified: verified, seconds: state.elapsedSeconds)
            let rendered = BannerRenderer(profile: .unknown).render(snapshot, previous: nil)
            XCTAssertEqual(rendered.summary, content.label)
            XCTAssertEqual(rendered.body, "\(content.number), \(content.timerText)\n\(content.badgeText)")
            XCTAssertEqual(rendered.iconName, content.badgeIconName)
            XCTAssertEqual(content.verified, verified)
        }
    }

    func testValues() {
        let verified = RelavoiCallContent(
            attributes: attributes,
            state: .init(elapsedSeconds: 83, verified: true, otherPartyLabel: "✔ Verified bank"))
        XCTAssertEqual(verified.timerText, "01:23")
        XCTAssertEqual(verified.badgeText, "Verified")
        XCTAssertEqual(verified.badgeWords, "Verified")
        XCTAssertEqual(verified.badgeIconName, "com.relavoi.Agent-verified")
        XCTAssertEqual(verified.badgeSymbolicIconName, "com.relavoi.Agent-verified-symbolic")
        XCTAssertEqual(verified.label, "“Verified bank”", "a label cannot pose as the badge")
        let unverified = RelavoiCallContent(
            attributes: RelavoiCallAttributes(sessionId: "s", proxyNumber: "", startedAt: Date()),
            state: .init(elapsedSeconds: 3600, verified: false, otherPartyLabel: ""))
        XCTAssertEqual(unverified.badgeText, "⚠ Unverified")
        XCTAssertEqual(unverified.number, "unknown number")
        XCTAssertEqual(unverified.label, "Relavoi call")
        XCTAssertEqual(unverified.timerText, "1:00:00")
        XCTAssertEqual(
            RelavoiCallContent.timerText(
                since: Date(timeIntervalSince1970: 0), now: Date(timeIntervalSince1970: 61.9)), "01:01")
    }
}
