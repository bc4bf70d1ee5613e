import Foundation
import RelavoiCore

/// One page of a listing and the cursor to the next (nil on the last page).
struct Page<Item> {
    var items: [Item]
    var after: String?

    func json(_ render: (Item) -> JSONValue) -> JSONValue {
        .object([
            "data": .array(items.map(render)),
            "pagination": .object([
                "count": .int(items.count),
                "after": after.map(JSONValue.string) ?? .null,
            ]),
        ])
    }
}
