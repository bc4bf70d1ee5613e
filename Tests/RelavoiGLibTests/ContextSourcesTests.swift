import CGLib
import RelavoiGLib
import XCTest

/// The count the agent's `Diagnostics()` and the soak report: it follows
/// sources as they are attached and removed, on any context.
final class ContextSourcesTests: XCTestCase {
    func testCountFollowsAttachedAndRemovedSources() {
        let context = g_main_context_new()
        defer { g_main_context_unref(context) }
        XCTAssertEqual(ContextSources.liveCount(in: context), 0)
        let sources = (0..<5).map { _ in g_timeout_source_new(60_000)! }
        for source in sources { g_source_attach(source, context) }
        XCTAssertEqual(ContextSources.liveCount(in: context), 5)
        for source in sources.prefix(3) { g_source_destroy(source) }
        XCTAssertEqual(ContextSources.liveCount(in: context), 2, "destroyed sources are not counted")
        for source in sources.suffix(2) { g_source_destroy(source) }
        for source in sources { g_source_unref(source) }
        XCTAssertEqual(ContextSources.liveCount(in: context), 0, "the probe itself is not left behind")
    }

    func testDefaultContextCountsATimer() {
        let before = ContextSources.liveCount(in: nil)
        let timer = GLibTimer.once(after: 60) {}
        XCTAssertEqual(ContextSources.liveCount(in: nil), before + 1)
        timer.cancel()
        XCTAssertEqual(ContextSources.liveCount(in: nil), before)
    }
}
