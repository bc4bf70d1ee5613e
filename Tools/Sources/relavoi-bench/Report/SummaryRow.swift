/// One line of the table: a metric's median and spread over the runs, and its goal.
struct SummaryRow: Codable, Equatable {
    enum Status: String, Codable {
        case met, missed
    }

    var section: String
    var label: String
    var unit: String
    var spread: Spread?
    var goal: String?
    var status: Status?
    /// Digits after the point in the table.
    var decimals: Int

    init(_ section: String, _ label: String, _ unit: String, _ values: [Double?], decimals: Int = 2) {
        self.section = section
        self.label = label
        self.unit = unit
        spread = Spread(values)
        self.decimals = decimals
    }

    /// Marks the row against a goal on its median.
    func goal(_ text: String, met: (Double) -> Bool) -> SummaryRow {
        var row = self
        row.goal = text
        row.status = spread.map { met($0.median) ? .met : .missed } ?? .missed
        return row
    }
}
