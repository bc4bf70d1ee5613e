// swift-format-ignore-file
// (Kept character for character as the page it comes from.)
// The iOS guide "Live Activities", sections 1, 4 and 5, as written there
// (the Widget bundle of section 2 is SwiftUI/WidgetKit and has no Linux part).
import RelavoiSDK

@available(iOS 16.1, *)
final class CallActivityController {
  private let liveActivity = LiveActivityManager()

  func attach() {
    Relavoi.shared.events.addListener("live-activity") { [weak self] event in
      guard let self else { return }
      switch event {
      case let .callAnswered(sessionId, _):
        Task {
          try? await self.liveActivity.start(
            sessionId: sessionId,
            proxyNumber: "+2348000000001",
            otherPartyLabel: "Chowdeck rider",
            verified: true
          )
        }
      case .callEnded:
        Task { await self.liveActivity.end() }
      default:
        break
      }
    }
  }
}

// Sections 4 and 5 name `controller.liveActivity`: an extension in this file
// may read the private property.
extension CallActivityController {
  func manualUpdates(controller: CallActivityController) async {
    await controller.liveActivity.update(
      state: RelavoiCallAttributes.State(
        elapsedSeconds: 42,
        verified: true,
        otherPartyLabel: "Chowdeck rider"
      )
    )
  }

  func endOnCallTermination(controller: CallActivityController) async {
    // Immediate dismissal (default)
    await controller.liveActivity.end()

    // Or let it linger briefly after the call ends
    await controller.liveActivity.end(dismissPolicy: .after(.now + 5))
  }

  // Section 3: building the attributes by hand.
  func customAttributes() -> RelavoiCallAttributes {
    RelavoiCallAttributes(sessionId: "ses_1", proxyNumber: "+2348000000001", startedAt: .now)
  }
}
