import Foundation
import RelavoiSettings
import Testing

@testable import RelavoiCore

@Suite struct OpenURLTemplateTests {
    @Test func expandsAndPercentEncodesEachValue() throws {
        let template = try OpenURLTemplate(
            parsing:
                "https://ops.example.com/calls/{sessionId}?order={metadata.orderId}&n={metadata.count}#{metadata.x}")
        #expect(
            template.parts == [
                .literal("https://ops.example.com/calls/"), .sessionId, .literal("?order="),
                .metadata(key: "orderId"), .literal("&n="), .metadata(key: "count"), .literal("#"),
                .metadata(key: "x"),
            ])
        let url = template.expand(
            sessionId: "ses_1/../admin",
            metadata: ["orderId": .string("DOC-1 & x=1#y?z"), "count": .int(3), "x": .string("Zoë~_.")])
        #expect(
            url
                == "https://ops.example.com/calls/ses_1%2F..%2Fadmin?order=DOC-1%20%26%20x%3D1%23y%3Fz&n=3#Zo%C3%AB~_.")
        #expect(URL(string: url ?? "")?.host == "ops.example.com")
    }

    @Test func scalarValuesOnlyAndMissingKeysGiveNoURL() throws {
        let template = try OpenURLTemplate(parsing: "https://x.test/{metadata.v}")
        #expect(template.expand(sessionId: "s", metadata: ["v": .bool(true)]) == "https://x.test/true")
        #expect(template.expand(sessionId: "s", metadata: ["v": .double(1.5)]) == "https://x.test/1.5")
        for value: JSONValue? in [nil, .null, .array([.int(1)]), .object([:])] {
            var metadata: [String: JSONValue] = [:]
            metadata["v"] = value
            #expect(template.expand(sessionId: "s", metadata: metadata) == nil)
        }
        let plain = try OpenURLTemplate(parsing: "https://x.test/dashboard")
        #expect(plain.expand(sessionId: "s", metadata: [:]) == "https://x.test/dashboard")
    }

    @Test(arguments: [
        "https://x.test/{sessionId}", "HTTPS://x.test/{sessionId}", "http://127.0.0.1:8080/c/{sessionId}",
        "http://localhost/c?id={sessionId}", "http://[::1]:9/#{sessionId}", "https://x.test?s={metadata.a.b-c_d}",
        "https://user.x.test/a%7Bb%7D/{sessionId}",
    ])
    func acceptedTemplates(text: String) throws {
        #expect(try OpenURLTemplate(parsing: text).description == text)
    }

    @Test(arguments: [
        ("https://x.test/{session}", "unknown placeholder {session}"),
        ("https://x.test/{SESSIONID}", "unknown placeholder {SESSIONID}"),
        ("https://x.test/{metadata.}", "a metadata key is"),
        ("https://x.test/{metadata.a b}", "spaces, control or non-ASCII"),
        ("https://x.test/{metadata.a/b}", "a metadata key is"),
        ("https://x.test/{sessionId", "unbalanced"),
        ("https://x.test/sessionId}", "unbalanced"),
        ("https://x.test/{{sessionId}}", "unbalanced"),
        ("http://ops.example.com/{sessionId}", "plain http:// only to a loopback host"),
        ("http://127.0.0.1.evil.test/{sessionId}", "plain http:// only to a loopback host"),
        ("ftp://x.test/{sessionId}", "only https://"),
        ("javascript://x.test/%0Aalert(1)", "only https://"),
        ("file:///etc/passwd", "the host must be written out"),
        ("{sessionId}", "must start with https://"),
        ("https://{metadata.host}/x", "the host must be written out"),
        ("https://x.test{sessionId}", "the host must be written out"),
        ("https://evil.test@x.test/{sessionId}", "user names in the URL are refused"),
        ("x.test/{sessionId}", "expected a URL starting with https://"),
        ("https://x.test/é", "non-ASCII"),
        ("https://x.test/a b", "spaces"),
    ])
    func refusedTemplatesSayWhy(text: String, message: String) {
        #expect {
            try OpenURLTemplate(parsing: text)
        } throws: { error in
            (error as? OpenURLTemplate.Invalid)?.message.contains(message) == true
        }
    }

    @Test func isAnAgentSetting() throws {
        let settings = try AgentSettings(file: ["open-url": " https://x.test/c/{sessionId} "], environment: [:])
        #expect(settings.openURL?.expand(sessionId: "ses_9", metadata: [:]) == "https://x.test/c/ses_9")
        #expect(try AgentSettings(file: ["open-url": ""], environment: [:]).openURL == nil)
        #expect(try AgentSettings(file: [:], environment: [:]).openURL == nil)
        #expect {
            try AgentSettings(file: ["open-url": "https://x.test/{nope}"], environment: [:])
        } throws: { error in
            (error as? SettingsError)?.description
                == "open-url: unknown placeholder {nope}: use {sessionId} or {metadata.KEY}"
        }
    }

    @Test func tooLongIsRefused() {
        #expect(throws: OpenURLTemplate.Invalid.self) {
            try OpenURLTemplate(parsing: "https://x.test/" + String(repeating: "a", count: 3000))
        }
    }
}
