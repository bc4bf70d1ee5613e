import Foundation
import RelavoiSettings
import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

@Suite struct AgentSettingsTests {
    @Test func defaults() throws {
        let settings = try AgentSettings(file: [:], environment: [:])
        #expect(settings.baseURL == "https://api.relavoi.com/v1")
        #expect(settings.dismissPolicy == .immediate)
        #expect(settings.maxBanners == 3)
        #expect(settings.labelKey == "label")
        #expect(settings.smsNotifications)
        #expect(!settings.banners.ringThroughDoNotDisturb)
        #expect(settings.proxyNumbers.isEmpty)
        #expect(settings.trayItem == .auto)
        #expect(settings.pauseMedia == .ringing)
        #expect(settings.offlineNoticeAfter == 120, "the documented default: two minutes")
    }

    /// The agent and an SDK app read the banner keys with the same parser.
    @Test func bannerKeysReadAsTheSDKReadsThem() throws {
        let group = ["banners-enabled": " off", "keep-on-screen": "YES", "ring-through-dnd": "0"]
        let agent = try AgentSettings(file: group, environment: [:]).banners
        #expect(agent == BannerSettings(enabled: false, keepOnScreen: true, ringThroughDoNotDisturb: false))
        #expect(agent == (try BannerSettings(group: group)))
        #expect(throws: SettingsError.self) { try AgentSettings(file: ["keep-on-screen": "maybe"], environment: [:]) }
        #expect(throws: SettingsError.self) { try BannerSettings(group: ["keep-on-screen": "maybe"]) }
    }

    @Test func trayItemModes() throws {
        for (text, mode) in [("auto", TrayItemMode.auto), ("on", .on), ("OFF", .off), (" off ", .off)] {
            #expect(try AgentSettings(file: ["tray-item": text], environment: [:]).trayItem == mode)
        }
    }

    @Test func pauseMediaModes() throws {
        for (text, mode) in [
            ("ringing", MediaPauseMode.ringing), ("Answered", .answered), (" OFF ", .off),
        ] {
            #expect(try AgentSettings(file: ["pause-media": text], environment: [:]).pauseMedia == mode)
        }
    }

    @Test func fileValuesAndEnvironmentOverrides() throws {
        let settings = try AgentSettings(
            file: [
                "base-url": "https://eu.relavoi.test/v1", "api-key": "rk_file", "dismiss-policy": "after:30",
                "proxy-numbers": "+1555; +1666 ,", "max-banners": "5", "ring-through-dnd": "yes",
                "keep-on-screen": "true", "user-phone": "+2348011112222",
            ],
            environment: ["RELAVOI_API_KEY": "rk_env", "RELAVOI_TENANT_ID": "5A4D0000-0000-4000-8000-00000000C0DE"])
        #expect(settings.apiKey == "rk_env")
        #expect(settings.tenantId == "5a4d0000-0000-4000-8000-00000000c0de")
        #expect(settings.dismissPolicy == .after(seconds: 30))
        #expect(settings.proxyNumbers == ["+1555", "+1666"])
        #expect(settings.maxBanners == 5)
        #expect(settings.banners.ringThroughDoNotDisturb && settings.banners.keepOnScreen)
        #expect(settings.userPhone == "+2348011112222")
        #expect(throws: Never.self) { try settings.requireAccount() }
    }

    @Test(arguments: [
        ("max-banners", "0"), ("max-banners", "many"), ("dismiss-policy", "later"), ("dismiss-policy", "after:99999"),
        ("user-phone", "0803 111"), ("tenant-id", "acme"), ("base-url", "ftp://x"), ("ws-url", "https://x/ws"),
        ("sms-notifications", "maybe"), ("frobnicate", "1"), ("api-secret", "rs_x"), ("tray-item", "yes"),
        ("pause-media", "on"), ("pause-media", ""), ("pause-media", "always"),
    ])
    func badValuesNameTheKey(key: String, value: String) {
        #expect {
            try AgentSettings(file: [key: value], environment: [:])
        } throws: { error in
            (error as? SettingsError)?.key == key && !(error as? SettingsError)!.description.contains("rs_x")
        }
    }

    @Test func missingAccountSaysWhatToSet() {
        #expect(throws: SettingsError.self) { try AgentSettings().requireAccount() }
        var settings = AgentSettings()
        settings.apiKey = "rk"
        #expect { try settings.requireAccount() } throws: { ($0 as? SettingsError)?.key == "tenant-id" }
    }

    @Test func dismissPolicyMapsToTheBannerPolicy() {
        let now = Date(timeIntervalSince1970: 1000)
        #expect(AgentDismissPolicy.immediate.policy(now: now) == .immediate)
        #expect(AgentDismissPolicy.default.policy(now: now) == .default)
        #expect(AgentDismissPolicy.after(seconds: 5).policy(now: now) == .after(Date(timeIntervalSince1970: 1005)))
    }
}

@Suite struct SessionDirectoryTests {
    @Test func memoryStaysBoundedAndTheOldestGoFirst() {
        var directory = SessionDirectory(capacity: 100)
        for index in 0..<10_000 { directory.rememberProxy("+\(index)", for: "s\(index)") }
        #expect(directory.count == 100)
        #expect(directory["s9999"]?.proxyNumber == "+9999")
        #expect(directory["s0"] == nil)
    }

    @Test func detailsMergeWithWhatIsKnown() throws {
        var directory = SessionDirectory()
        directory.rememberProxy("+1", for: "s")
        let details = try #require(
            SessionDetails(
                json: .object([
                    "id": .string("s"), "state": .string("ACTIVE"), "metadata": .object(["label": .string("L")]),
                ]),
                labelKey: "label", tenantId: nil))
        directory.rememberDetails(details, for: "s")
        #expect(directory["s"]?.proxyNumber == "+1", "a session without a number keeps the one from the stream")
        #expect(directory["s"]?.details?.label == "L")
        directory.forget("s")
        #expect(directory["s"] == nil)
    }

    @Test func anIdForgottenAndAddedAgainIsEvictedByItsNewPlace() {
        var directory = SessionDirectory(capacity: 3)
        directory.rememberProxy("+a", for: "a")
        directory.forget("a")
        directory.rememberProxy("+b", for: "b")
        directory.rememberCallEnded(at: Date(timeIntervalSince1970: 5), sequence: 1, for: "a")
        directory.rememberProxy("+c", for: "c")
        directory.rememberProxy("+d", for: "d")  // full: b, the oldest live entry, goes; not a
        #expect(directory["a"]?.callEndedAt == Date(timeIntervalSince1970: 5))
        #expect(directory["b"] == nil)
        #expect(directory.count == 3)
    }
}

@Suite struct SessionDetailsTests {
    @Test func liveStatesAndTenantDecideVerification() throws {
        let active = try JSONValue.parse(
            #"{"id":"s1","proxyNumber":"+1","state":"ACTIVE","metadata":{"label":"Rider","other":1}}"#)
        let details = try #require(SessionDetails(json: active, labelKey: "label", tenantId: "t"))
        #expect(details.isLive && details.label == "Rider" && details.proxyNumber == "+1")
        let grace = try JSONValue.parse(#"{"id":"s1","state":"GRACE_PERIOD","tenantId":"T"}"#)
        #expect(SessionDetails(json: grace, labelKey: "label", tenantId: "t")?.isLive == true)
        let otherTenant = try JSONValue.parse(#"{"id":"s1","state":"ACTIVE","tenantId":"other"}"#)
        #expect(SessionDetails(json: otherTenant, labelKey: "label", tenantId: "t")?.isLive == false)
        let expired = try JSONValue.parse(#"{"id":"s1","state":"EXPIRED"}"#)
        #expect(SessionDetails(json: expired, labelKey: "label", tenantId: "t")?.isLive == false)
        #expect(SessionDetails(json: .string("x"), labelKey: "label", tenantId: "t") == nil)
    }

    @Test func verifyMustNameThisSession() throws {
        #expect(SessionDetails.verifies(try JSONValue.parse(#"{"verified":true,"sessionId":"s1"}"#), sessionId: "s1"))
        #expect(!SessionDetails.verifies(try JSONValue.parse(#"{"verified":true,"sessionId":"s2"}"#), sessionId: "s1"))
        #expect(!SessionDetails.verifies(try JSONValue.parse(#"{"verified":false}"#), sessionId: "s1"))
        #expect(
            !SessionDetails.verifies(try JSONValue.parse(#"{"verified":"true","sessionId":"s1"}"#), sessionId: "s1"))
    }

    @Test func pagesOfSessions() throws {
        let page = try #require(
            SessionDetails.page(
                try JSONValue.parse(#"{"data":[{"id":"a"},{"id":"b"}],"pagination":{"count":2,"after":"c1"}}"#)))
        #expect(page.ids == ["a", "b"] && page.next == "c1")
        let last = try #require(
            SessionDetails.page(try JSONValue.parse(#"{"data":[],"pagination":{"count":0,"after":null}}"#)))
        #expect(last.next == nil)
    }
}
