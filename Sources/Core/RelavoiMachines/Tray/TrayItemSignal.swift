import FoundationEssentials

/// The item's change signals (`org.kde.StatusNotifierItem`, and Ayatana's label).
public enum TrayItemSignal: String, Equatable, Sendable, CaseIterable {
    case newStatus = "NewStatus"
    case newTitle = "NewTitle"
    case newIcon = "NewIcon"
    case newAttentionIcon = "NewAttentionIcon"
    case newToolTip = "NewToolTip"
    case newLabel = "XAyatanaNewLabel"
}
