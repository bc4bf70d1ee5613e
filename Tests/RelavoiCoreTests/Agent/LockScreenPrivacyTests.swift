import RelavoiSettings
import Testing

@testable import RelavoiCore

@Suite struct LockScreenPrivacyTests {
    @Test func eachSettingShowsWhatItSays() {
        let number = "+234 800 000 0001"
        #expect(
            LockScreenPrivacy.label.card(label: "Rider", proxyNumber: number)
                == .init(visible: true, label: "Rider", number: "•••• 0001"))
        #expect(
            LockScreenPrivacy.number.card(label: "Rider", proxyNumber: number)
                == .init(visible: true, label: "Rider", number: number))
        #expect(
            LockScreenPrivacy.badge.card(label: "Rider", proxyNumber: number)
                == .init(visible: true, label: "", number: ""))
        #expect(
            LockScreenPrivacy.off.card(label: "Rider", proxyNumber: number)
                == .init(visible: false, label: "", number: ""))
    }

    @Test func theDefaultNeverShowsTheWholeNumber() {
        #expect(AgentSettings().lockScreen == .label)
        for number in ["+2348000000001", "+1 555 0100", "0001", "", "unknown number"] {
            let shown = LockScreenPrivacy.label.card(label: "x", proxyNumber: number).number
            #expect(shown.filter(\.isNumber).count <= LockScreenPrivacy.shownDigits, "\(number) → \(shown)")
            #expect(number.filter(\.isNumber).count <= 4 ? shown.isEmpty : true, "nothing to hide: nothing shown")
        }
    }

    @Test func theSettingIsReadFromAgentConf() throws {
        let settings = try AgentSettings(file: ["lock-screen": "Badge"], environment: [:])
        #expect(settings.lockScreen == .badge)
        #expect(throws: SettingsError.self) { try AgentSettings(file: ["lock-screen": "all"], environment: [:]) }
        #expect(throws: SettingsError.self) { try AgentSettings(file: ["gnome-top-bar": "maybe"], environment: [:]) }
        #expect(try AgentSettings(file: ["gnome-top-bar": "off"], environment: [:]).topBar == .off)
    }
}
