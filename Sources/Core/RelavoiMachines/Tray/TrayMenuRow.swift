import FoundationEssentials
import RelavoiCore

/// One row of the item's menu (`com.canonical.dbusmenu`): per call its
/// label and timer, number, badge words, then "Copy number" and "Dismiss";
/// "Settings…" last.
public struct TrayMenuRow: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Text only, not clickable.
        case text
        case separator
        case copyNumber(String)
        case dismiss(sessionId: String)
        /// Opens the Relavoi window on its Settings page.
        case openSettings
    }

    /// The dbusmenu id: the call's slot times `TrayMenuSlots.rowsPerCall` plus the row.
    public var id: Int32
    public var kind: Kind
    public var label: String

    public init(id: Int32, kind: Kind, label: String) {
        self.id = id
        self.kind = kind
        self.label = label
    }

    static func rows(
        calls: [TrayCall], now: Date, canCopy: Bool, slots: [String: Int32], phrases: TrayPhrases
    ) -> [TrayMenuRow] {
        var rows: [TrayMenuRow] = []
        var seen: Set<String> = []
        // A session listed twice (never from the agent) keeps its first rows: ids stay unique.
        for call in calls where seen.insert(call.sessionId).inserted {
            guard let slot = slots[call.sessionId] else { continue }
            let base = slot * TrayMenuSlots.rowsPerCall
            if !rows.isEmpty { rows.append(TrayMenuRow(id: base, kind: .separator, label: "")) }
            rows.append(
                TrayMenuRow(
                    id: base + 1, kind: .text,
                    label: "\(call.displayLabel(phrases))  \(call.timerText(at: now, phrases))"))
            if !call.proxyNumber.isEmpty {
                rows.append(TrayMenuRow(id: base + 2, kind: .text, label: call.proxyNumber))
            }
            rows.append(TrayMenuRow(id: base + 3, kind: .text, label: phrases.banner.words(call.badge)))
            if canCopy, !call.proxyNumber.isEmpty {
                rows.append(TrayMenuRow(id: base + 4, kind: .copyNumber(call.proxyNumber), label: phrases.copyNumber))
            }
            rows.append(TrayMenuRow(id: base + 5, kind: .dismiss(sessionId: call.sessionId), label: phrases.dismiss))
        }
        return rows
    }

    /// "Settings…" below what `rows` holds (a separator between), in ids no call uses
    /// (slot 0: calls start at slot 1, the health line is 1).
    static func withSettings(_ rows: [TrayMenuRow], _ phrases: TrayPhrases) -> [TrayMenuRow] {
        let separator = rows.isEmpty ? [] : [TrayMenuRow(id: 2, kind: .separator, label: "")]
        return rows + separator + [TrayMenuRow(id: 3, kind: .openSettings, label: phrases.settings)]
    }

    /// Whether `label` differs from `sent` only in its digits: a running timer's
    /// next second, which may wait until a host opens the menu. Any other change
    /// (ringing to live, a badge's words) is a new state and goes out at once, so
    /// a menu drawn from what a host last read never shows a state that has passed.
    public static func onlyTimerMoved(from sent: String, to label: String) -> Bool {
        TrayItemView.guide(sent) == TrayItemView.guide(label)
    }

    /// The same row with its text left out: rows whose shapes are equal can
    /// be updated in place, others need a new layout.
    public var shape: TrayMenuRow {
        var copy = self
        copy.label = ""
        return copy
    }
}
