// swift-format-ignore-file
// (Kept character for character as the page it comes from.)
// The iOS guide "Real-time events", as written there, without SwiftUI's
// `App` protocol and `body` (MyApp is a plain struct here).
import RelavoiSDK

struct MyApp {
  init() {
    Relavoi.initialize(
      apiKey: Secrets.relavoiApiKey,
      apiSecret: Secrets.relavoiApiSecret,
      tenantId: Secrets.relavoiTenantId
    )
    Task {
      await Relavoi.shared.events.connect()
    }
  }
}

enum HomeView {
  static func register() {
    Relavoi.shared.events.addListener("home-view") { event in
      switch event {
      case let .sessionCreated(sessionId, proxyNumber, ts):
        print("Created \(sessionId) on \(proxyNumber) at \(ts)")
      case let .sessionActivated(sessionId, _):
        print("Activated \(sessionId)")
      case let .sessionExpired(sessionId, _):
        print("Expired \(sessionId)")
      case let .callIncoming(sessionId, callerNumber, _):
        print("Incoming on session \(sessionId) from \(callerNumber)")
      case let .callAnswered(sessionId, _):
        print("Answered \(sessionId)")
      case let .callEnded(sessionId, durationSeconds, _):
        print("Session \(sessionId) ended after \(durationSeconds)s")
      case let .smsReceived(sessionId, _):
        print("SMS in on \(sessionId)")
      case let .unknown(type, payload):
        print("Unhandled event \(type): \(payload)")
      }
    }
  }

  static func goAway() {
    Relavoi.shared.events.removeListener("home-view")
  }

  static func checkConnection() {
    Task {
      let live = await Relavoi.shared.events.isConnected
      print(live ? "Live" : "Offline")
    }
  }

  static func logout() async {
    await Relavoi.shared.events.disconnect()
  }
}
