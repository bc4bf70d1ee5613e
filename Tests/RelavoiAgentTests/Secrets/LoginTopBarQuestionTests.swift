import Foundation
import RelavoiCore
import XCTest

@testable import RelavoiAgentKit

/// `login`'s last question on GNOME: the top-bar extension, asked once, the answer saved.
final class LoginTopBarQuestionTests: XCTestCase {
    private static let question =
        "Show Relavoi calls in GNOME's top bar (the extension \"Relavoi calls\")? [Y/n] "

    /// A login with `answers` after the key, the secret and the phone, against a shell
    /// in `status`; returns the recorder, what was enabled and the saved settings.
    private func login(
        answers: [String], status: TopBarOffer.Status?, outcome: TopBarOffer.Outcome = .onNow, existing: String = ""
    ) throws -> (LoginRecorder, [TopBarOffer.Status], [String: String]) {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/relavoi", withIntermediateDirectories: true)
        let config = try directory.file("relavoi/agent.conf", "[agent]\n\(existing)\n")
        let recorder = LoginRecorder(lines: [TestCredentials.apiKey, TestCredentials.secret, ""] + answers)
        var enabled: [TopBarOffer.Status] = []
        var io = recorder.io(configPath: config)
        io.topBar = LoginTopBarQuestion.Shell(
            status: { status },
            enable: {
                enabled.append($0)
                return outcome
            })
        XCTAssertEqual(LoginCommand.run([], io: io), 0, "\(recorder.err)")
        return (recorder, enabled, try KeyFileText.load(config)["agent"] ?? [:])
    }

    func testYesTurnsTheExtensionOnAndIsSaved() throws {
        let (recorder, enabled, settings) = try login(answers: [""], status: .disabled)
        XCTAssertEqual(recorder.prompts.last?.0, Self.question)
        XCTAssertEqual(enabled, [.disabled])
        XCTAssertEqual(settings["gnome-top-bar"], "on")
        XCTAssertEqual(
            recorder.out.suffix(2).first, "Relavoi calls are in the top bar.", "before the hint to start the agent")
    }

    func testYesForAnExtensionInstalledSinceLoginSaysWhenItTakesEffect() throws {
        let (recorder, enabled, settings) = try login(
            answers: ["y"], status: .installedSinceLogin, outcome: .onAtNextLogin)
        XCTAssertEqual(enabled, [.installedSinceLogin])
        XCTAssertEqual(settings["gnome-top-bar"], "on")
        XCTAssertEqual(recorder.out.suffix(2).first, "Relavoi calls will be in the top bar after you next log in.")
    }

    func testNoIsSavedAndNothingIsTurnedOn() throws {
        let (recorder, enabled, settings) = try login(answers: ["maybe", "n"], status: .disabled)
        XCTAssertEqual(recorder.prompts.suffix(2).map(\.0), [Self.question, Self.question], "asked again after maybe")
        XCTAssertEqual(recorder.err, ["relavoi-agent login: answer y or n"])
        XCTAssertEqual(enabled, [])
        XCTAssertEqual(settings["gnome-top-bar"], "off")
    }

    func testAFailedEnableSaysHowToTurnItOn() throws {
        let (recorder, _, settings) = try login(
            answers: ["yes"], status: .disabled, outcome: .failed("GNOME Shell did not answer"))
        XCTAssertEqual(settings["gnome-top-bar"], "on", "the person's answer, whatever the shell did")
        XCTAssertEqual(
            recorder.err.last,
            "relavoi-agent login: the top bar could not be turned on (GNOME Shell did not answer); turn on \"Relavoi calls\" in the Extensions app."
        )
    }

    func testNotAskedOutsideGNOMEWhenAnsweredOnOrNotInstalled() throws {
        let cases: [(TopBarOffer.Status?, String)] = [
            (nil, ""), (.disabled, "gnome-top-bar = off"), (.disabled, "gnome-top-bar = on"), (.enabled, ""),
            (.notInstalled, ""), (.noShell, ""), (.extensionsOff, ""), (.refused("out of date"), ""),
        ]
        for (status, existing) in cases {
            let (recorder, enabled, settings) = try login(answers: ["y"], status: status, existing: existing)
            XCTAssertFalse(
                recorder.prompts.map(\.0).contains(Self.question), "\(String(describing: status)) \(existing)")
            XCTAssertEqual(enabled, [])
            XCTAssertEqual(
                settings["gnome-top-bar"],
                existing.isEmpty ? nil : String(existing.suffix(existing.hasSuffix("on") ? 2 : 3)))
        }
    }

    func testNoAnswerAtTheEndOfInputSavesNothing() throws {
        let (_, enabled, settings) = try login(answers: [], status: .disabled)
        XCTAssertEqual(enabled, [])
        XCTAssertNil(settings["gnome-top-bar"], "asked again next time")
    }
}
