import Foundation
import RelavoiCore

/// Cursor pagination as the contract describes it: a page of at most `limit`
/// items and an opaque `after` cursor, null on the last page.
///
/// Items carry a store sequence number; a cursor names the last one served,
/// so pages stay consistent when items are added or removed between calls.
enum Pagination {
    enum Failure: Error, Equatable {
        case badLimit
        case badCursor
    }

    /// Parses `limit` (default, clamped to `max`) from a query value.
    static func limit(_ text: String?, default fallback: Int, max: Int) throws(Failure) -> Int {
        guard let text else { return fallback }
        guard let value = Int(text), value >= 1 else { throw .badLimit }
        return Swift.min(value, max)
    }

    /// `items` must be in serving order, each with its sequence number.
    static func page<Item>(
        _ items: [(seq: Int, item: Item)], limit: Int, after cursor: String?, ascending: Bool
    ) throws(Failure) -> Page<Item> {
        var remaining = items[...]
        if let cursor {
            guard let seq = decodeCursor(cursor) else { throw .badCursor }
            remaining = remaining.drop(while: { ascending ? $0.seq <= seq : $0.seq >= seq })
        }
        let slice = remaining.prefix(limit)
        let more = remaining.count > slice.count
        return Page(items: slice.map(\.item), after: more ? slice.last.map { encodeCursor($0.seq) } : nil)
    }

    static func encodeCursor(_ seq: Int) -> String { Base64URL.encode("sbx1:\(seq)") }

    static func decodeCursor(_ cursor: String) -> Int? {
        guard let data = Base64URL.decode(cursor), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("sbx1:")
        else { return nil }
        return Int(text.dropFirst(5))
    }
}
