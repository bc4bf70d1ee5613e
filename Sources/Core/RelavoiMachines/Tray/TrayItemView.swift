import FoundationEssentials
import RelavoiCore

/// What the panel item (`org.kde.StatusNotifierItem`) shows for the calls at
/// one moment. Pure: the driver reads its properties from here and asks
/// `signals(since:)` which `New*` signals a change needs.
public struct TrayItemView: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable {
        /// No call (or another indicator shows it): hosts hide the item.
        case passive = "Passive"
        case active = "Active"
        /// A call rings.
        case needsAttention = "NeedsAttention"
    }

    /// The app's own icon, for a hidden item.
    public static let appIconName = RelavoiIcon.name
    /// What hosts draw instead of the badge while a call rings (NeedsAttention).
    public static let ringingIconName = "com.relavoi.Agent-ringing-symbolic"

    public var status: Status = .passive
    public var title = "Relavoi"
    public var iconName = Self.appIconName
    public var attentionIconName = Self.appIconName
    /// `XAyatanaLabel`: drawn next to the icon by GNOME's AppIndicator and xfce.
    public var label = ""
    /// `XAyatanaLabelGuide`: the widest text the label takes in its current
    /// form (digits as 0), so the panel does not jump every second.
    public var labelGuide = ""
    public var toolTipTitle = ""
    public var toolTipText = ""
    public var menu: [TrayMenuRow] = []

    /// The hidden item: `hidden` (the GNOME extension shows the calls), no menu.
    public init() {}

    /// - Parameters:
    ///   - calls: oldest first, as the `Calls` property lists them.
    ///   - hidden: another indicator shows the calls: stay Passive, say nothing.
    ///   - canCopy: a clipboard tool is there: offer "Copy number".
    ///   - slots: each call's menu slot (`TrayMenuSlots`).
    ///   - phrases: the item's words in the user's language (badge words and a
    ///     label-less call's name are the banners').
    ///   - health: why calls cannot show (`ConnectionHealthPhrases.line`), nil
    ///     while they can. Shown only without a call: a call on screen says enough.
    public init(
        calls: [TrayCall], now: Date, hidden: Bool, canCopy: Bool, slots: [String: Int32],
        phrases: TrayPhrases, health: String? = nil
    ) {
        guard !hidden else { return }
        guard let focus = Self.focus(calls) else {
            if let health {
                self = TrayItemView(health: health, phrases: phrases)
                return
            }
            // Quiet, yet with a way to the window: KDE lists a Passive item among its hidden ones.
            menu = TrayMenuRow.withSettings([], phrases)
            return
        }
        let rings = calls.contains { $0.phase == .ringing }
        status = rings ? .needsAttention : .active
        title = focus.displayLabel(phrases)
        iconName = focus.badge.iconName
        attentionIconName = rings ? Self.ringingIconName : focus.badge.iconName
        let more = calls.count > 1 ? " +\(calls.count - 1)" : ""
        label = focus.timerText(at: now, phrases) + more
        labelGuide = Self.guide(label)
        toolTipTitle = calls.count == 1 ? focus.displayLabel(phrases) : phrases.calls(calls.count)
        toolTipText = calls.map { call in
            "\(call.displayLabel(phrases)) · \(call.proxyNumber)\n\(phrases.banner.words(call.badge)) · \(call.timerText(at: now, phrases))"
        }.joined(separator: "\n")
        menu = TrayMenuRow.withSettings(
            TrayMenuRow.rows(calls: calls, now: now, canCopy: canCopy, slots: slots, phrases: phrases), phrases)
    }

    /// No call, and calls cannot show: a quiet item (Active, never
    /// NeedsAttention: nothing rings) saying so in its title, tooltip and menu.
    init(health: String, phrases: TrayPhrases) {
        status = .active
        title = health
        iconName = VerificationBadge.unavailable.iconName
        attentionIconName = iconName
        toolTipTitle = "Relavoi"
        toolTipText = health
        menu = TrayMenuRow.withSettings([TrayMenuRow(id: Self.healthRowId, kind: .text, label: health)], phrases)
    }

    /// Below every call's ids (slot 1 starts at `TrayMenuSlots.rowsPerCall`).
    static let healthRowId: Int32 = 1

    /// The call the label is about: a ringing one first, else a live one, else the oldest.
    static func focus(_ calls: [TrayCall]) -> TrayCall? {
        calls.first { $0.phase == .ringing } ?? calls.first { $0.phase == .live } ?? calls.first
    }

    /// The text with each digit as 0: as wide as any time of the same form.
    static func guide(_ text: String) -> String {
        String(text.map { $0.isASCII && $0.isNumber ? "0" : $0 })
    }

    /// The `New*` signals that tell a host what differs from `old`, each once.
    public func signals(since old: TrayItemView) -> [TrayItemSignal] {
        var signals: [TrayItemSignal] = []
        if status != old.status { signals.append(.newStatus) }
        if title != old.title { signals.append(.newTitle) }
        if iconName != old.iconName { signals.append(.newIcon) }
        if attentionIconName != old.attentionIconName { signals.append(.newAttentionIcon) }
        if toolTipTitle != old.toolTipTitle || toolTipText != old.toolTipText || iconName != old.iconName {
            signals.append(.newToolTip)
        }
        if label != old.label || labelGuide != old.labelGuide { signals.append(.newLabel) }
        return signals
    }
}
