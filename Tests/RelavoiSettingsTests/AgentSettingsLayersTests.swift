import Foundation
import RelavoiCore
import RelavoiSettings
import Testing

/// The administrator's defaults under the person's own file, key by key, and where each value comes from.
@Suite struct AgentSettingsLayersTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relavoi-layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func personWinsKeyByKeyAndEachValueKnowsItsOrigin() throws {
        let first = try file("etc1/agent.conf", "[agent]\nlock-screen = badge\nsms-notifications = false\n")
        let second = try file("etc2/agent.conf", "[agent]\nlock-screen = off\ntray-item = off\n")
        let user = try file("home/agent.conf", "[agent]\nsms-notifications = true\n")
        let layers = try AgentSettingsLayers.load(userPath: user, administratorPaths: [first, second])

        #expect(layers.merged == ["lock-screen": "badge", "sms-notifications": "true", "tray-item": "off"])
        #expect(layers.origin(of: "sms-notifications") == .user(path: user))
        #expect(layers.origin(of: "lock-screen") == .administrator(path: first))
        #expect(layers.origin(of: "tray-item") == .administrator(path: second))
        #expect(layers.origin(of: "keep-on-screen") == .builtIn)
        #expect(layers.administratorValue("sms-notifications")?.value == "false")

        let settings = try layers.settings(environment: [:])
        #expect(settings.lockScreen == .badge)
        #expect(settings.smsNotifications)
        #expect(settings.trayItem == .off)
    }

    @Test func environmentIsTheStrongestOrigin() throws {
        let user = try file("home/agent.conf", "[agent]\nbase-url = https://a.example/v1\n")
        let layers = try AgentSettingsLayers.load(userPath: user, administratorPaths: [])
        let environment = ["RELAVOI_BASE_URL": "http://127.0.0.1:1/v1"]
        #expect(layers.origin(of: "base-url", environment: environment) == .environment(variable: "RELAVOI_BASE_URL"))
        #expect(try layers.settings(environment: environment).baseURL == "http://127.0.0.1:1/v1")
    }

    @Test func aBadAdministratorValueNamesItsFile() throws {
        let admin = try file("etc/agent.conf", "[agent]\nlock-screen = everything\n")
        let user = folder.appendingPathComponent("home/none.conf").path
        let layers = try AgentSettingsLayers.load(userPath: user, administratorPaths: [admin])
        #expect(throws: SettingsError.self) { try layers.settings(environment: [:]) }
        do {
            _ = try layers.settings(environment: [:])
        } catch {
            #expect(error.key == "lock-screen")
            #expect(error.message.contains(admin))
        }
    }

    @Test func missingFilesAreEmpty() throws {
        let layers = try AgentSettingsLayers.load(
            userPath: folder.appendingPathComponent("no/user.conf").path,
            administratorPaths: [folder.appendingPathComponent("no/admin.conf").path])
        #expect(layers.merged.isEmpty)
        #expect(try layers.settings(environment: [:]) == AgentSettings())
    }

    @Test func aGivenConfigPathIsReadAloneAsBefore() throws {
        let path = try file("given.conf", "[agent]\nlock-screen = number\n")
        #expect(try AgentSettingsLoader.load(path: path).lockScreen == .number)
        #expect(throws: SettingsError.self) {
            try AgentSettingsLoader.load(path: folder.appendingPathComponent("absent.conf").path)
        }
    }

    @Test func removingAKeyKeepsTheRest() throws {
        let path = try file("home/agent.conf", "# mine\n[agent]\napi-key = rk_x\ntray-item = on\n")
        try AgentSettingsWriter.remove(["api-key", "not-there"], path: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("api-key"))
        #expect(text.contains("tray-item=on"))
        #expect(text.contains("# mine"))
    }
}
