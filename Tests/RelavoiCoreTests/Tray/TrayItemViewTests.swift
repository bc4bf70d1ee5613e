import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct TrayItemViewTests {
    static let t0 = Date(timeIntervalSince1970: 1_784_117_000)

    func call(
        _ phase: TrayCall.Phase, id: String = "ses_1", badge: VerificationBadge = .verified, label: String = "Rider",
        answeredAt: Date? = t0, duration: Int = 0
    ) -> TrayCall {
        TrayCall(
            sessionId: id, label: label, proxyNumber: "+2348000000001", badge: badge, phase: phase, rangAt: Self.t0,
            answeredAt: phase == .ringing ? nil : answeredAt, durationSeconds: duration)
    }

    func view(
        _ calls: [TrayCall], at seconds: Double = 0, hidden: Bool = false, canCopy: Bool = true,
        phrases: TrayPhrases = .english, health: String? = nil
    ) -> TrayItemView {
        var slots = TrayMenuSlots()
        return TrayItemView(
            calls: calls, now: Self.t0.addingTimeInterval(seconds), hidden: hidden, canCopy: canCopy,
            slots: slots.assign(calls.map(\.sessionId)), phrases: phrases, health: health)
    }

    @Test func noCallWhileCallsCannotShowIsAQuietActiveItemSayingSo() {
        let line = "Offline since 14:02: calls will not show"
        let v = view([], health: line)
        #expect(v.status == .active, "shown, but never NeedsAttention: nothing rings")
        #expect(v.title == line && v.toolTipText == line && v.toolTipTitle == "Relavoi")
        #expect(v.iconName == "com.relavoi.Agent-unavailable" && v.attentionIconName == v.iconName)
        #expect(v.label.isEmpty, "nothing next to the icon in the bar")
        #expect(
            v.menu == [
                TrayMenuRow(id: 1, kind: .text, label: line), TrayMenuRow(id: 2, kind: .separator, label: ""),
                TrayMenuRow(id: 3, kind: .openSettings, label: "Settings…"),
            ])
        #expect(v.signals(since: TrayItemView()).contains(.newStatus))
    }

    @Test func aCallOnScreenOrAnotherIndicatorTakesPrecedenceOverHealth() {
        let line = "API key refused: calls will not show"
        #expect(view([call(.live)], health: line) == view([call(.live)]))
        #expect(view([], hidden: true, health: line) == TrayItemView(), "the GNOME extension shows it")
        #expect(view([], health: nil) == view([]), "connected: nothing to say")
    }

    @Test func noCallIsPassiveWithOnlySettings() {
        let empty = view([])
        #expect(empty.status == .passive && empty.label.isEmpty && empty.title == "Relavoi")
        #expect(empty.menu == [TrayMenuRow(id: 3, kind: .openSettings, label: "Settings…")], "a way to the window")
        #expect(empty.iconName == "com.relavoi.Agent")
        #expect(empty.signals(since: TrayItemView()).isEmpty, "the menu is no item property")
    }

    @Test func ringingNeedsAttention() {
        let v = view([call(.ringing, badge: .checking)])
        #expect(v.status == .needsAttention)
        #expect(v.title == "Rider")
        #expect(v.iconName == "com.relavoi.Agent-checking")
        #expect(v.attentionIconName == "com.relavoi.Agent-ringing-symbolic")
        #expect(v.label == "Ringing…" && v.labelGuide == "Ringing…")
        #expect(v.toolTipTitle == "Rider")
        #expect(v.toolTipText == "Rider · +2348000000001\nChecking… · Ringing…")
    }

    /// What a closed menu may hold back: a timer's next second, never a new state.
    @Test func onlyATimersNextSecondWaitsForTheMenuToOpen() {
        let rows = { (seconds: Double, calls: [TrayCall]) in self.view(calls, at: seconds).menu.map(\.label) }
        let live = rows(42, [call(.live)])
        let later = rows(43, [call(.live)])
        let past = rows(3723, [call(.live)])
        let ringing = rows(42, [call(.ringing)])
        let unverified = rows(43, [call(.live, badge: .unverified)])
        let ended = rows(50, [call(.ended, duration: 50)])
        #expect(live != later)
        for (index, label) in later.enumerated() {
            #expect(TrayMenuRow.onlyTimerMoved(from: live[index], to: label), "\(live[index]) → \(label)")
        }
        #expect(!TrayMenuRow.onlyTimerMoved(from: live[0], to: past[0]), "00:42 → 1:02:03: the timer's form")
        #expect(!TrayMenuRow.onlyTimerMoved(from: ringing[0], to: live[0]), "ringing → live")
        #expect(!TrayMenuRow.onlyTimerMoved(from: live[0], to: ended[0]), "live → ended")
        #expect(
            zip(later, unverified).contains { !TrayMenuRow.onlyTimerMoved(from: $0, to: $1) }, "a new badge's words")
    }

    @Test func liveTicksAndTheGuideKeepsItsWidth() {
        let v = view([call(.live)], at: 75.4)
        #expect(v.status == .active)
        #expect(v.label == "01:15" && v.labelGuide == "00:00")
        #expect(v.toolTipText.contains("Verified · 01:15"))
        let hour = view([call(.live)], at: 3725)
        #expect(hour.label == "1:02:05" && hour.labelGuide == "0:00:00")
    }

    @Test func endedAndMissedStayActiveWithTheirWords() {
        #expect(view([call(.ended, duration: 42)]).label == "Ended 00:42")
        #expect(view([call(.ended, duration: 42)]).status == .active)
        #expect(view([call(.missed)]).label == "Missed")
    }

    @Test func severalCallsFocusOnTheRingingOne() {
        let v = view([call(.live, id: "a", label: "First"), call(.ringing, id: "b", label: "Second")], at: 5)
        #expect(v.status == .needsAttention)
        #expect(v.title == "Second" && v.label == "Ringing… +1")
        #expect(v.toolTipTitle == "2 Relavoi calls")
        #expect(v.toolTipText.split(separator: "\n").count == 4)
    }

    /// Made-up French words: the item's own, and the banners' for badges.
    static var french: TrayPhrases {
        var french = TrayPhrases()
        french.banner.checking = "Vérification…"
        french.banner.verified = "Vérifié"
        french.banner.unverified = "Non vérifié"
        french.banner.callFallbackLabel = "Appel Relavoi"
        french.ringing = "Sonnerie…"
        french.ended = "Terminé %s"
        french.missed = "Manqué"
        french.copyNumber = "Copier le numéro"
        french.dismiss = "Ignorer"
        french.calls = { "\($0) appels Relavoi" }
        return french
    }

    /// The item's badge words and a call's fallback label are the banners' own,
    /// in the user's language, not English.
    @Test func badgeWordsAndFallbackLabelAreTheBannersPhrases() {
        let v = view(
            [call(.live, id: "a", badge: .unverified, label: ""), call(.ringing, id: "b", badge: .checking)], at: 3,
            phrases: Self.french)
        #expect(
            v.toolTipText
                == "Appel Relavoi · +2348000000001\nNon vérifié · 00:03\nRider · +2348000000001\nVérification… · Sonnerie…"
        )
        #expect(v.menu.map(\.label).contains("Non vérifié") && v.menu.map(\.label).contains("Vérification…"))
        #expect(v.menu.first?.label == "Appel Relavoi  00:03")
        #expect(!v.toolTipText.contains("Unverified") && !v.toolTipText.contains("Checking"))
        let alone = view([call(.live, badge: .verified, label: "")], phrases: Self.french)
        #expect(alone.title == "Appel Relavoi" && alone.toolTipTitle == "Appel Relavoi")
        #expect(alone.menu.map(\.label).contains("Vérifié") && !alone.menu.map(\.label).contains("Verified"))
    }

    /// The timer's words, the tooltip's count and the menu's actions are the item's own.
    @Test func theItemsOwnWordsAreTranslatedToo() {
        let v = view([call(.live, id: "a"), call(.ringing, id: "b")], at: 3, phrases: Self.french)
        #expect(v.label == "Sonnerie… +1" && v.labelGuide == "Sonnerie… +0")
        #expect(v.toolTipTitle == "2 appels Relavoi")
        let labels = v.menu.map(\.label)
        #expect(labels.filter { $0 == "Copier le numéro" }.count == 2 && labels.filter { $0 == "Ignorer" }.count == 2)
        #expect(!labels.contains("Dismiss") && !labels.contains("Copy number"))
        let ended = view([call(.ended, duration: 42)], phrases: Self.french)
        #expect(ended.label == "Terminé 00:42" && ended.labelGuide == "Terminé 00:00")
        #expect(view([call(.missed)], phrases: Self.french).label == "Manqué")
        // A translation that dropped the %s still says something.
        var dropped = Self.french
        dropped.ended = "Terminé"
        #expect(view([call(.ended, duration: 42)], phrases: dropped).label == "Terminé")
    }

    @Test func hiddenWhileAnotherIndicatorShowsTheCalls() {
        #expect(view([call(.ringing)], hidden: true) == TrayItemView())
    }

    @Test func menuListsEachCallWithItsActions() {
        let v = view(
            [call(.live, id: "a", label: "First"), call(.ended, id: "b", label: "Second", duration: 9)], at: 3)
        #expect(
            v.menu.map(\.label) == [
                "First  00:03", "+2348000000001", "Verified", "Copy number", "Dismiss",
                "", "Second  Ended 00:09", "+2348000000001", "Verified", "Copy number", "Dismiss",
                "", "Settings…",
            ])
        #expect(v.menu[3].kind == .copyNumber("+2348000000001"))
        #expect(v.menu[4].kind == .dismiss(sessionId: "a"))
        #expect(v.menu[10].kind == .dismiss(sessionId: "b"))
        #expect(Set(v.menu.map(\.id)).count == v.menu.count, "ids are unique")
        let noClipboard = view([call(.live)], canCopy: false)
        #expect(!noClipboard.menu.contains { $0.label == "Copy number" })
    }

    @Test func signalsNameOnlyWhatChanged() {
        let ringing = view([call(.ringing)])
        #expect(Set(ringing.signals(since: TrayItemView())) == Set(TrayItemSignal.allCases))
        let live1 = view([call(.live)], at: 1)
        #expect(live1.signals(since: ringing) == [.newStatus, .newAttentionIcon, .newToolTip, .newLabel])
        #expect(live1.attentionIconName == live1.iconName)
        let live2 = view([call(.live)], at: 2)
        #expect(live2.signals(since: live1) == [.newToolTip, .newLabel])
        #expect(view([call(.live)], at: 2.9).signals(since: live2).isEmpty, "same second, same texts")
        let unverified = view([call(.live, badge: .unverified)], at: 2)
        #expect(unverified.signals(since: live2) == [.newIcon, .newAttentionIcon, .newToolTip])
        #expect(TrayItemView().signals(since: live2) == TrayItemSignal.allCases)
    }
}

@Suite struct TraySignalPacerTests {
    static let t0 = TrayItemViewTests.t0

    func live(_ seconds: Double) -> TrayItemView {
        TrayItemViewTests().view([TrayItemViewTests().call(.live)], at: seconds)
    }

    @Test func atMostOneBatchEachSecond() {
        var pacer = TraySignalPacer()
        let ringing = TrayItemViewTests().view([TrayItemViewTests().call(.ringing)])
        #expect(pacer.offer(ringing, now: Self.t0.addingTimeInterval(0.2)) == .emit(ringing.signals(since: .init())))
        // Answered in the same second: waits for the next one.
        #expect(
            pacer.offer(live(0.6), now: Self.t0.addingTimeInterval(0.6))
                == .wait(until: Self.t0.addingTimeInterval(1)))
        #expect(pacer.announced == ringing)
        #expect(
            pacer.offer(live(1.005), now: Self.t0.addingTimeInterval(1.005))
                == .emit([.newStatus, .newAttentionIcon, .newToolTip, .newLabel]))
        #expect(pacer.offer(live(2.005), now: Self.t0.addingTimeInterval(2.005)) == .emit([.newToolTip, .newLabel]))
        #expect(pacer.offer(live(2.5), now: Self.t0.addingTimeInterval(2.5)) == .idle, "nothing new")
    }

    @Test func overManySecondsTheBatchesStayAtOneASecond() {
        var pacer = TraySignalPacer()
        var batches = 0
        // Offers every 0.1 s for 10 s, as ticks and changes might come.
        for step in 0..<100 {
            let now = Self.t0.addingTimeInterval(Double(step) * 0.1 + 0.05)
            let badge: VerificationBadge = step % 3 == 0 ? .verified : .unverified
            let call = TrayItemViewTests().call(.live, badge: badge)
            if case .emit = pacer.offer(TrayItemViewTests().view([call], at: Double(step) * 0.1 + 0.05), now: now) {
                batches += 1
            }
        }
        #expect(batches <= 10 && batches >= 9, "\(batches) batches in 10 s")
    }

    @Test func hiddenItemSaysNothing() {
        var pacer = TraySignalPacer()
        #expect(pacer.offer(TrayItemView(), now: Self.t0) == .idle)
        #expect(pacer.offer(TrayItemView(), now: Self.t0.addingTimeInterval(5)) == .idle)
    }

    @Test func aClockSetBackStartsOver() {
        var pacer = TraySignalPacer()
        _ = pacer.offer(live(1), now: Self.t0.addingTimeInterval(100))
        #expect(pacer.offer(live(2), now: Self.t0) == .emit([.newToolTip, .newLabel]))
    }
}

@Suite struct TrayMenuTests {
    func rows() -> [TrayMenuRow] {
        let calls = [
            TrayItemViewTests().call(.live, id: "a"), TrayItemViewTests().call(.ringing, id: "b"),
        ]
        var slots = TrayMenuSlots()
        return TrayItemView(
            calls: calls, now: TrayItemViewTests.t0, hidden: false, canCopy: true,
            slots: slots.assign(calls.map(\.sessionId)), phrases: .english
        ).menu
    }

    @Test func clicksOnActionsAct() {
        let rows = rows()
        let dismissB = rows.last { $0.label == "Dismiss" }!
        #expect(TrayMenuEvent.decide(rows: rows, itemId: dismissB.id, eventId: "clicked") == .dismiss(sessionId: "b"))
        let copy = rows.first { $0.label == "Copy number" }!
        #expect(TrayMenuEvent.decide(rows: rows, itemId: copy.id, eventId: "clicked") == .copyNumber("+2348000000001"))
        #expect(TrayMenuEvent.decide(rows: rows, itemId: copy.id, eventId: "hovered") == .ignored)
        #expect(TrayMenuEvent.decide(rows: rows, itemId: rows[0].id, eventId: "clicked") == .ignored)
        #expect(TrayMenuEvent.decide(rows: rows, itemId: 0, eventId: "opened") == .ignored)
        let settings = rows.last!
        #expect(settings.label == "Settings…")
        #expect(TrayMenuEvent.decide(rows: rows, itemId: settings.id, eventId: "clicked") == .openSettings)
    }

    @Test func unknownIdsAndEventsAreRefusedWithPrintableWords() {
        let rows = rows()
        guard case .refused(let unknown) = TrayMenuEvent.decide(rows: rows, itemId: 9999, eventId: "clicked") else {
            Issue.record("an unknown id was not refused")
            return
        }
        #expect(unknown.contains("9999"))
        guard case .refused(let odd) = TrayMenuEvent.decide(rows: rows, itemId: 9, eventId: "\u{1B}[31mx")
        else {
            Issue.record("an unknown event was not refused")
            return
        }
        #expect(odd.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, "\(odd)")
    }

    @Test func slotsStayWithTheirCallsAndAreNotReusedAtOnce() {
        var slots = TrayMenuSlots()
        let first = slots.assign(["a", "b"])
        let second = slots.assign(["b", "c"])
        #expect(second["b"] == first["b"])
        #expect(second["c"] != first["a"] && second["c"] != first["b"])
        #expect(second["a"] == nil)
    }
}

@Suite struct TrayActivationTests {
    @Test func opensTheFocusCallOnlyWithOpenURL() {
        let calls = [
            TrayItemViewTests().call(.live, id: "ses_a"), TrayItemViewTests().call(.ringing, id: "ses b"),
        ]
        #expect(TrayActivation.outcome(opensPages: false, calls: calls) == .nothing("no open-url: the item is a menu"))
        #expect(TrayActivation.outcome(opensPages: true, calls: calls) == .open(sessionId: "ses b"))
        #expect(TrayActivation.outcome(opensPages: true, calls: []) == .nothing("no call shown"))
    }
}
