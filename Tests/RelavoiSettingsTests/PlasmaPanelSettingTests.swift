import RelavoiCore
import RelavoiSettings
import Testing

@Suite struct PlasmaPanelSettingTests {
    @Test func theSettingReadsItsThreeValues() throws {
        #expect(try AgentSettings(file: [:], environment: [:]).plasmaPanel == .ask)
        #expect(try AgentSettings(file: ["kde-panel": "ON"], environment: [:]).plasmaPanel == .on)
        #expect(try AgentSettings(file: ["kde-panel": "off"], environment: [:]).plasmaPanel == .off)
        #expect(throws: SettingsError.self) { try AgentSettings(file: ["kde-panel": "maybe"], environment: [:]) }
    }
}
