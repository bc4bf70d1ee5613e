import Foundation
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct CallBookTests {
    let t = Date(timeIntervalSince1970: 0)

    @Test func capsBannersAndCountsTheRestInOneSummary() {
        var book = CallBook(maxBanners: 2)
        #expect(book.callChanged("a", phase: .ringing) == [.showBanner(sessionId: "a", phase: .ringing)])
        #expect(
            book.callChanged("b", phase: .active(startedAt: t)) == [
                .showBanner(sessionId: "b", phase: .active(startedAt: t))
            ])
        #expect(book.callChanged("c", phase: .ringing) == [.summary(count: 1)])
        #expect(book.callChanged("d", phase: .ringing) == [.summary(count: 2)])
        #expect(book.callChanged("c", phase: .active(startedAt: t)).isEmpty, "an overflow call has no banner to move")
        // a ends: c (the oldest waiting) takes its place, with its latest phase.
        #expect(
            book.callFinished("a") == [
                .endBanner(sessionId: "a"), .showBanner(sessionId: "c", phase: .active(startedAt: t)),
                .summary(count: 1),
            ])
        #expect(book.callFinished("d") == [.summary(count: 0)])
    }

    @Test func dismissedCallsKeepNoSlotAndNeverComeBack() {
        var book = CallBook(maxBanners: 1)
        _ = book.callChanged("a", phase: .ringing)
        _ = book.callChanged("b", phase: .ringing)
        #expect(book.bannerDismissed("a") == [.showBanner(sessionId: "b", phase: .ringing), .summary(count: 0)])
        #expect(book.callChanged("a", phase: .active(startedAt: t)).isEmpty)
        #expect(book.callFinished("a").isEmpty)
    }

    /// What pause-media counts: every call in the book by phase, whatever its slot.
    @Test func phaseCountsFollowEveryCallWhateverItsSlot() {
        var book = CallBook(maxBanners: 1)
        _ = book.callChanged("a", phase: .ringing)
        _ = book.callChanged("b", phase: .ringing)
        #expect(book.phaseCounts == CallPhaseCounts(ringing: 2, answered: 0), "b waits in the summary: counted")
        _ = book.callChanged("b", phase: .active(startedAt: t))
        #expect(book.phaseCounts == CallPhaseCounts(ringing: 1, answered: 1))
        _ = book.bannerDismissed("a")
        #expect(book.phaseCounts == CallPhaseCounts(ringing: 1, answered: 1), "a dismissed call goes on")
        _ = book.callChanged("b", phase: .active(startedAt: t.addingTimeInterval(1)))
        #expect(book.phaseCounts == CallPhaseCounts(ringing: 1, answered: 1), "a new answer time is no new call")
        _ = book.callFinished("a")
        _ = book.callFinished("b")
        _ = book.callFinished("b")
        #expect(book.phaseCounts == CallPhaseCounts())
        var full = CallBook(maxBanners: 1, capacity: 3)
        for index in 0..<10 { _ = full.callChanged("s\(index)", phase: .ringing) }
        #expect(full.phaseCounts.ringing == full.calls.count, "forgotten calls are not counted")
    }

    @Test func followedCallsAreBounded() {
        var book = CallBook(maxBanners: 1, capacity: 50)
        for index in 0..<5_000 { _ = book.callChanged("s\(index)", phase: .ringing) }
        #expect(book.calls.count <= 50)
        #expect(book.calls["s0"]?.slot == .shown, "the shown banner is never evicted")
    }

    /// Calls whose banners the user dismissed and that then ended left their
    /// entry in the dismissed queue for good (it is read only when the book
    /// is full): its memory must stay bounded.
    @Test func dismissedCallsThatEndLeaveNothingBehind() {
        var book = CallBook(maxBanners: 3)
        var longest = 0
        for index in 0..<10_000 {
            let sessionId = "session-\(index)"
            _ = book.callChanged(sessionId, phase: .ringing)
            _ = book.bannerDismissed(sessionId)
            _ = book.callFinished(sessionId)
            longest = max(longest, book.orderLogCount)
        }
        #expect(longest <= 2 * 64 + 1)
        #expect(book.calls.isEmpty)
    }

    /// Trimming keeps the order: when full, the oldest dismissed call still goes first.
    @Test func theOldestDismissedCallGoesFirstAfterATrim() {
        var book = CallBook(maxBanners: 1, capacity: 200)
        for index in 0..<300 {
            _ = book.callChanged("ended-\(index)", phase: .ringing)
            _ = book.bannerDismissed("ended-\(index)")
            _ = book.callFinished("ended-\(index)")
        }
        for index in 0..<200 {
            _ = book.callChanged("kept-\(index)", phase: .ringing)
            _ = book.bannerDismissed("kept-\(index)")
        }
        #expect(book.callChanged("new", phase: .ringing).first == .forgot(sessionId: "kept-0"))
        #expect(book.calls["kept-1"] != nil && book.calls["new"] != nil)
    }
}
