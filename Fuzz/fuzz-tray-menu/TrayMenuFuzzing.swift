import Foundation
import RelavoiCore
import RelavoiMachines

/// The check the tray item runs on every dbusmenu event libdbusmenu hands it
/// (`TrayMenuEvent.decide`), over the menu built for some calls
/// (`TrayItemView`), against an oracle written from their documentation.
///
/// Input: an 8-byte header (little-endian Int32 item id, UInt8 number of
/// calls (mod 4), UInt8 flags: bit 0 "a clipboard tool is there", bits 1…6
/// two bits of phase per call), then strings separated by NUL: the event's
/// name, then per call its session id, label and number. A short input is
/// zero-padded.
enum TrayMenuFuzzing {
    struct Input {
        var itemId: Int32
        var canCopy: Bool
        var eventId: String
        var calls: [TrayCall]
    }

    static let phases: [TrayCall.Phase] = [.ringing, .live, .ended, .missed]
    static let now = Date(timeIntervalSince1970: 1_784_117_699)

    static func input(_ bytes: UnsafeRawBufferPointer) -> Input {
        var header = [UInt8](repeating: 0, count: 8)
        for index in 0..<min(8, bytes.count) { header[index] = bytes[index] }
        let itemId = Int32(
            bitPattern: UInt32(header[0]) | UInt32(header[1]) << 8 | UInt32(header[2]) << 16 | UInt32(header[3]) << 24)
        let count = Int(header[4] % 4)
        let flags = header[5]
        let strings =
            bytes.count > 8
            ? bytes[8...].split(separator: 0, omittingEmptySubsequences: false).map {
                // D-Bus only carries valid UTF-8.
                String(decoding: $0, as: UTF8.self)
            } : []
        func string(_ index: Int) -> String { index < strings.count ? strings[index] : "" }
        let calls = (0..<count).map { index in
            TrayCall(
                sessionId: string(1 + index * 3), label: string(2 + index * 3), proxyNumber: string(3 + index * 3),
                badge: .verified, phase: phases[Int(flags >> (1 + 2 * index)) & 3],
                answeredAt: now.addingTimeInterval(-65), durationSeconds: 42)
        }
        return Input(itemId: itemId, canCopy: flags & 1 != 0, eventId: string(0), calls: calls)
    }

    static func problems(_ bytes: UnsafeRawBufferPointer) -> [String] {
        problems(input(bytes))
    }

    static func problems(_ input: Input) -> [String] {
        var slots = TrayMenuSlots()
        let view = TrayItemView(
            calls: input.calls, now: now, hidden: false, canCopy: input.canCopy,
            slots: slots.assign(input.calls.map(\.sessionId)), phrases: .english)
        var problems: [String] = []
        if Set(view.menu.map(\.id)).count != view.menu.count { problems.append("menu ids repeat: \(view.menu)") }
        let outcome = TrayMenuEvent.decide(rows: view.menu, itemId: input.itemId, eventId: input.eventId)
        let expected = expectedOutcome(input)
        switch (outcome, expected) {
        case (.refused(let message), nil):
            if message.isEmpty || message.utf8.count > 300 {
                problems.append("refusal message of \(message.utf8.count) bytes")
            }
            if !message.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
                problems.append("refusal message is not printable ASCII: \(message.debugDescription)")
            }
        case (let outcome, let expected?) where outcome == expected:
            break
        default:
            problems.append(
                "event \(input.eventId.debugDescription) on item \(input.itemId): \(outcome), expected \(expected.map { "\($0)" } ?? "a refusal")"
            )
        }
        return problems
    }

    /// The documented rule: dbusmenu's four event names only; item 0 is the
    /// root; a call's rows are slot × 8 + 1 (label and timer), 2 (number, when
    /// there is one), 3 (badge), 4 (Copy number, with a clipboard tool and a
    /// number), 5 (Dismiss), and 0 the separator before every call but the
    /// first; slots are 1, 2, 3 for the first distinct sessions. Slot 0 holds
    /// "Settings…" (3), always, and the separator above it (2) below any call.
    /// Only a click on Copy number, Dismiss or Settings… does something. nil:
    /// refused.
    static func expectedOutcome(_ input: Input) -> TrayMenuEvent.Outcome? {
        guard ["clicked", "hovered", "opened", "closed"].contains(input.eventId) else { return nil }
        if input.itemId == 0 { return .ignored }
        var distinct: [TrayCall] = []
        for call in input.calls where !distinct.contains(where: { $0.sessionId == call.sessionId }) {
            distinct.append(call)
        }
        if input.itemId == 3 { return input.eventId == "clicked" ? .openSettings : .ignored }
        if input.itemId == 2 { return distinct.isEmpty ? nil : .ignored }
        let slot = Int(input.itemId / 8)
        let row = input.itemId % 8
        guard input.itemId > 0, slot >= 1, slot <= distinct.count else { return nil }
        let call = distinct[slot - 1]
        let exists: Bool
        switch row {
        case 0: exists = slot > 1
        case 1, 3, 5: exists = true
        case 2: exists = !call.proxyNumber.isEmpty
        case 4: exists = input.canCopy && !call.proxyNumber.isEmpty
        default: exists = false
        }
        guard exists else { return nil }
        guard input.eventId == "clicked" else { return .ignored }
        switch row {
        case 4: return .copyNumber(call.proxyNumber)
        case 5: return .dismiss(sessionId: call.sessionId)
        default: return .ignored
        }
    }
}
