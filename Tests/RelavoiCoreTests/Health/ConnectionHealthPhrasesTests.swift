import Foundation
import Testing

@testable import RelavoiCore

@Suite struct ConnectionHealthPhrasesTests {
    static let lost = Date(timeIntervalSince1970: 1_784_117_000)
    let phrases = ConnectionHealthPhrases.english
    let clock: (Date) -> String = { $0 == ConnectionHealthPhrasesTests.lost ? "14:02" : "??" }

    @Test func offlineIsLowUrgencySayingSinceWhen() {
        let notice = phrases.notice(ConnectionNotice(kind: .offline, since: Self.lost), clock: clock)
        #expect(notice.summary == "Offline since 14:02: calls will not show")
        #expect(notice.urgency == .low && notice.category == "network.disconnected")
        #expect(notice.iconName == "com.relavoi.Agent-unavailable")
        #expect(notice.lasting && notice.buttons.isEmpty)
    }

    @Test func refusedAndNotSetUpNameTheFixAndOfferSignIn() {
        let refused = phrases.notice(ConnectionNotice(kind: .refused, since: Self.lost), clock: clock)
        #expect(refused.summary == "Relavoi refused this computer's API key")
        #expect(refused.body.contains("relavoi-agent login") && refused.urgency == .normal)
        let notSetUp = phrases.notice(ConnectionNotice(kind: .notSetUp, since: nil), clock: clock)
        #expect(notSetUp.summary == "Relavoi calls cannot show: not set up")
        #expect(notSetUp.body.contains("relavoi-agent login"))
        let signIn = NotificationButton(id: "sign-in", label: "Sign in")
        #expect(refused.buttons == [signIn] && notSetUp.buttons == [signIn], "the window's Sign in page")
    }

    @Test func thePanelLineIsNilWhileCallsCanShow() {
        #expect(phrases.line(.connected, clock: clock) == nil)
        #expect(phrases.line(.reconnecting(since: Self.lost), clock: clock) == nil, "a blip is not news")
        #expect(phrases.line(.offline(since: Self.lost), clock: clock) == "Offline since 14:02: calls will not show")
        #expect(phrases.line(.refused(since: Self.lost), clock: clock) == "API key refused: calls will not show")
        #expect(phrases.line(.notSetUp, clock: clock) == "Not set up: calls will not show")
    }
}
