import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiSandboxKit
import RelavoiTestSupport
import XCTest

/// The agent in the user's language: the catalogs `make` compiles into
/// `.build/locale` (po/), read by the build-tree binary under a French or
/// Portuguese locale (scripts/install-deps.sh generates fr_FR.UTF-8 and
/// pt_BR.UTF-8).
final class AgentTranslationTests: XCTestCase {
    static func locale(_ name: String) -> [String: String] {
        ["LANG": name, "LC_ALL": name, "LANGUAGE": ""]
    }

    override func setUpWithError() throws {
        // Where the agent looks from the build tree (Localization.swift): .build/locale
        // beside .build/<triple>/<config>/, also from a sanitizer's scratch path.
        let folder = URL(fileURLWithPath: AgentProcess.binaryPath).resolvingSymlinksInPath().deletingLastPathComponent()
        let catalogs = ["../../locale", "../locale", "../../../locale"].map {
            folder.appendingPathComponent("\($0)/fr/LC_MESSAGES/relavoi-agent.mo").path
        }
        XCTAssertTrue(
            catalogs.contains { FileManager.default.fileExists(atPath: $0) },
            "no compiled catalogs (make translations): \(catalogs)")
    }

    func testFrenchBannersAreTranslatedAndTheTimerStaysMinutesSeconds() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(
                config: "dismiss-policy = after:60\nuser-phone = +2348011112222",
                environment: Self.locale("fr_FR.UTF-8"))
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            h.session("ses_fr", proxy: "+2348000000001", label: "Livreur", phones: ["+2348011112222"])
            h.send("call.incoming", "ses_fr", ["proxyNumber": .string("+2348000000001")])
            let ringing = h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Vérifié") }
            XCTAssertEqual(ringing?.body, "Appel entrant sur le +234 800 000 0001\nVérifié")
            h.send("call.answered", "ses_fr")
            let live = h.waitForNotify { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 1 }
            let timer = live?.timerText ?? "?"
            // The answer time in local HH:MM after the timer ("depuis 14:02").
            let answered = live?.body.split(separator: "\n").first.map { String($0.suffix(5)) } ?? "?"
            XCTAssertEqual(
                live?.body, "+234 800 000 0001, \(timer), depuis \(answered)\nVérifié",
                "mm:ss whatever the language")
            XCTAssertNotNil(answered.wholeMatch(of: /[0-2][0-9]:[0-5][0-9]/), answered)
            h.send("call.ended", "ses_fr", ["durationSeconds": .int(75)])
            let ended = h.waitForNotify { $0.hints["category"] == "call.ended" }
            XCTAssertEqual(ended?.body, "Appel terminé, 01:15\n+234 800 000 0001, Vérifié")

            // Not the user's phone: the server says no.
            h.session("ses_nv", proxy: "+2348000000001", label: "Inconnu")
            h.send("call.answered", "ses_nv")
            let unverified = h.waitForNotify { $0.summary == "Inconnu" && $0.body.contains("Non vérifié") }
            XCTAssertNotNil(unverified, "\(h.mock.notifyCalls().map(\.body))")
            // The panels read the same words.
            let client = try BusTestClient(destination: AgentBus.name)
            let calls = client.agentCalls()
            XCTAssertTrue(calls.contains("'badge-text': <'Non vérifié'>"), calls)
        }
    }

    /// The count's plural form comes from the catalog (Plural-Forms of pt.po).
    func testCallsOverTheCapArePluralisedInPortuguese() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(config: "max-banners = 1", environment: Self.locale("pt_BR.UTF-8"))
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            for id in ["ses_a", "ses_b", "ses_c"] {
                h.session(id, label: id)
                h.send("call.answered", id)
            }
            let summary = h.waitForNotify { $0.body == "mais 2 chamadas ativas" }
            XCTAssertEqual(summary?.summary, "Relavoi", "\(h.mock.notifyCalls().map(\.body))")
            h.send("call.ended", "ses_c")
            XCTAssertNotNil(h.waitForNotify { $0.body == "mais 1 chamada ativa" })
        }
    }

    func testHelpInFrenchAndPortuguese() throws {
        var (status, output) = try AgentProcess.run(arguments: ["--help"], environment: Self.locale("fr_FR.UTF-8"))
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Affiche des bannières en direct pour les appels Relavoi"), output)
        XCTAssertTrue(output.contains("Afficher la version et quitter"), output)
        (status, output) = try AgentProcess.run(arguments: ["ctl", "--help"], environment: Self.locale("pt_BR.UTF-8"))
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Uso: relavoi-agent ctl COMANDO"), output)
        (status, output) = try AgentProcess.run(
            arguments: ["login", "--help"], environment: Self.locale("fr_FR.UTF-8"))
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Configure l'agent pour cet utilisateur en une fois"), output)
        // Messages too: a usage error of ctl.
        (status, output) = try AgentProcess.run(
            arguments: ["ctl", "frobnicate"], environment: Self.locale("fr_FR.UTF-8"))
        XCTAssertEqual(status, 2, output)
        XCTAssertTrue(output.contains("relavoi-agent ctl: commande inconnue frobnicate"), output)
        XCTAssertTrue(output.contains("Essayez « relavoi-agent ctl --help »."), output)
        // Without a translation the words stay English.
        (status, output) = try AgentProcess.run(arguments: ["--help"], environment: Self.locale("C.UTF-8"))
        XCTAssertTrue(output.contains("Shows live banners for Relavoi calls"), output)
    }
}
