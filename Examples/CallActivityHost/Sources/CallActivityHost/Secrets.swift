import Foundation

/// The app's credentials; this host reads them from its environment.
enum Secrets {
    static let relavoiApiKey = value("RELAVOI_API_KEY")
    static let relavoiApiSecret = value("RELAVOI_API_SECRET")
    static let relavoiTenantId = value("RELAVOI_TENANT_ID")

    static func value(_ name: String) -> String { ProcessInfo.processInfo.environment[name] ?? "" }
}
