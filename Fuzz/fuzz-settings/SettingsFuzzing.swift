import Foundation
import KeyFileText
import RelavoiCore
import RelavoiSettings

/// What must hold for any agent.conf: group `[agent]` is the file,
/// `[environment]` the process environment (so overrides are fuzzed too).
/// Settings come back within their documented ranges, or an error names a
/// key that was really given; each broken promise is a finding.
enum SettingsFuzzing {
    static let overrides: [String: String] = [
        "RELAVOI_BASE_URL": "base-url", "RELAVOI_WS_URL": "ws-url", "RELAVOI_API_KEY": "api-key",
        "RELAVOI_TENANT_ID": "tenant-id", "RELAVOI_USER_PHONE": "user-phone",
        "RELAVOI_API_SECRET_FILE": "api-secret-file",
    ]

    static func problems(_ bytes: UnsafeRawBufferPointer) -> [String] {
        // GKeyFile hands out UTF-8 only (g_key_file_get_string refuses the rest).
        guard let text = String(validating: [UInt8](bytes), as: UTF8.self),
            let groups = KeyFileText.parse(text)
        else { return [] }
        let file = groups[AgentSettings.group] ?? [:]
        let environment = groups["environment"] ?? [:]
        return problems(file: file, environment: environment)
    }

    static func problems(file: [String: String], environment: [String: String]) -> [String] {
        let first = Result { () throws(SettingsError) in try AgentSettings(file: file, environment: environment) }
        let again = Result { () throws(SettingsError) in try AgentSettings(file: file, environment: environment) }
        if first != again { return ["parsing the same settings twice gave different results"] }

        // The values AgentSettings sees: the file, overridden by non-empty variables.
        var given = file
        for (variable, key) in overrides {
            if let value = environment[variable], !value.isEmpty { given[key] = value }
        }
        switch first {
        case .success(let settings):
            var problems = check(settings, given)
            do throws(SettingsError) {
                try settings.requireAccount()
                if settings.apiKey == nil || settings.tenantId == nil {
                    problems.append("requireAccount passed without an account")
                }
            } catch {
                if !["api-key", "tenant-id"].contains(error.key) {
                    problems.append("requireAccount names \(error.key)")
                }
            }
            return problems
        case .failure(let error):
            var problems: [String] = []
            if given[error.key] == nil {
                problems.append("the error names \(error.key.debugDescription), which was not given")
            }
            if error.message.isEmpty { problems.append("an error without a message") }
            return problems
        }
    }

    /// A value as the parser takes it: without the whitespace around it,
    /// newlines included (a `\n` escape in agent.conf is whitespace too).
    private static func trimmed(_ value: String?) -> String? {
        value?.trimmingWhitespace()
    }

    private static func check(_ s: AgentSettings, _ given: [String: String]) -> [String] {
        var problems: [String] = []
        func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition { problems.append(what()) }
        }
        let known: Set = [
            "base-url", "ws-url", "api-key", "tenant-id", "user-phone", "api-secret-file", "dismiss-policy",
            "ring-through-dnd", "sms-notifications", "proxy-numbers", "max-banners", "label-key", "banners-enabled",
            "keep-on-screen", "tray-item", "lock-screen", "gnome-top-bar", "open-url", "offline-notice-after",
            "pause-media",
        ]
        expect(given.keys.allSatisfy(known.contains), "accepted an unknown key among \(given.keys.sorted())")
        expect((1...20).contains(s.maxBanners), "max-banners \(s.maxBanners) out of 1…20")
        if let value = trimmed(given["max-banners"]) { expect(Int(value) == s.maxBanners, "max-banners not as given") }
        expect(!s.labelKey.isEmpty && s.labelKey.count <= 64, "label-key \(s.labelKey.debugDescription) out of shape")
        if let tenant = s.tenantId {
            expect(
                UUID(uuidString: tenant) != nil && tenant == tenant.lowercased(),
                "tenant-id \(tenant) is not a lowercase UUID")
        }
        if let phone = s.userPhone {
            let digits = phone.unicodeScalars.dropFirst()
            expect(
                phone.first == "+" && (8...15).contains(digits.count) && digits.allSatisfy({ ("0"..."9").contains($0) })
                    && digits.first != "0", "user-phone \(phone.debugDescription) is not E.164")
        }
        expect(
            schemeOf(s.baseURL).map { ["http", "https"].contains($0) } == true,
            "base-url scheme of \(s.baseURL.debugDescription)")
        if let ws = s.webSocketURL {
            expect(schemeOf(ws).map { ["ws", "wss"].contains($0) } == true, "ws-url scheme of \(ws.debugDescription)")
        }
        if let key = s.apiKey { expect(!key.isEmpty && key == trimmed(key), "api-key empty or untrimmed") }
        if let value = trimmed(given["api-key"]) {
            expect(s.apiKey == (value.isEmpty ? nil : value), "api-key not as given")
        }
        if let path = s.apiSecretFile { expect(!path.isEmpty, "empty api-secret-file") }
        expect(
            s.proxyNumbers.allSatisfy { !$0.isEmpty && $0 == trimmed($0) && !$0.contains(",") && !$0.contains(";") },
            "proxy-numbers \(s.proxyNumbers) hold an empty or untrimmed entry")
        if let value = trimmed(given["tray-item"]) {
            expect(s.trayItem.rawValue == value.lowercased(), "tray-item \(s.trayItem) not as given")
        }
        if let value = trimmed(given["lock-screen"]) {
            expect(s.lockScreen.rawValue == value.lowercased(), "lock-screen \(s.lockScreen) not as given")
        }
        if let value = trimmed(given["pause-media"]) {
            expect(s.pauseMedia.rawValue == value.lowercased(), "pause-media \(s.pauseMedia) not as given")
        } else {
            expect(s.pauseMedia == .ringing, "pause-media \(s.pauseMedia) without being given")
        }
        if let value = trimmed(given["gnome-top-bar"]) {
            expect(s.topBar.rawValue == value.lowercased(), "gnome-top-bar \(s.topBar) not as given")
        }
        expect((1...3600).contains(s.offlineNoticeAfter), "offline-notice-after \(s.offlineNoticeAfter) out of 1…3600")
        if case .after(let seconds) = s.dismissPolicy {
            expect((0...4 * 3600).contains(seconds), "dismiss-policy after:\(seconds) out of range")
        }
        return problems
    }

    private static func schemeOf(_ text: String) -> String? { URL(string: text)?.scheme?.lowercased() }
}
