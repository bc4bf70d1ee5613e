import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct OldestFirstTableTests {
    /// Keys added and removed again and again (calls shown and closed) leave
    /// stale entries in the eviction order: they are dropped, so its memory
    /// stays bounded while the table never fills.
    @Test func theOrderLogStaysBoundedUnderChurn() {
        var table = OldestFirstTable<Int, Int>(capacity: 8)
        table[-1] = -1
        var longest = 0
        for key in 0..<10_000 {
            table[key] = key
            table[key] = nil
            longest = max(longest, table.orderLogCount)
        }
        #expect(longest <= 2 * table.capacity)
        #expect(table.count == 1 && table[-1] == -1)
    }

    /// A full table turning over (the session directory on a busy stream)
    /// compacts its log in place: once the buffer has grown to its bound it
    /// is the same buffer, not a new one per compaction.
    @Test func aFullTableKeepsItsLogBuffer() {
        var table = OldestFirstTable<String, Int>(capacity: 64)
        for key in 0..<(4 * 64) { table["session-\(key)"] = key }
        let settled = table.orderLogCapacity
        var capacities: Set<Int> = []
        for key in (4 * 64)..<(40 * 64) {
            table["session-\(key)"] = key
            capacities.insert(table.orderLogCapacity)
        }
        #expect(capacities == [settled])
        #expect(table.count == 64 && table["session-\(40 * 64 - 1)"] == 40 * 64 - 1)
        #expect(table["session-\(40 * 64 - 65)"] == nil)
    }

    @Test func setsRemovesAndEvictsTheOldest() {
        var table = OldestFirstTable<String, Int>(capacity: 2)
        table["a"] = 1
        table["b"] = 2
        table["a"] = 10  // an update: a keeps its place
        table["c"] = 3  // full: a, the oldest, goes
        #expect(table["a"] == nil && table["b"] == 2 && table["c"] == 3 && table.count == 2)
        table["b"] = nil
        table["d"] = 4  // not full: nothing goes
        #expect(table["c"] == 3 && table["d"] == 4 && table.count == 2)
        #expect(OldestFirstTable<String, Int>(capacity: 0).capacity == 1)
    }
}
