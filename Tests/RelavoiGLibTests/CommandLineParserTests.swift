import RelavoiGLib
import XCTest

/// GOptionContext behind `CommandLineParser`: values in both forms, short
/// groups, the usage errors callers turn into exit status 2, and help that
/// comes back as text instead of ending the process.
final class CommandLineParserTests: XCTestCase {
    private let parser = CommandLineParser(
        options: [
            .init("config", short: "c", value: "FILE", filename: true, description: "Read FILE"),
            .init("verbose", short: "v", description: "Say more"), .init("demo", description: "Play a call"),
        ], summary: "Does things.")

    private struct HelpInsteadOfAParse: Error {}

    private func parsed(_ words: [String], _ parser: CommandLineParser? = nil) throws -> CommandLineParser.Parsed {
        guard case .parsed(let result) = try (parser ?? self.parser).parse(["prog"] + words) else {
            throw HelpInsteadOfAParse()
        }
        return result
    }

    func testValuesFlagsAndOperandsInOrder() throws {
        let result = try parsed(["--config", "a.conf", "-v", "operand", "--config=b.conf", "--demo"])
        XCTAssertEqual(
            result.given,
            [
                .init(name: "config", value: "a.conf"), .init(name: "verbose", value: nil),
                .init(name: "config", value: "b.conf"), .init(name: "demo", value: nil),
            ])
        XCTAssertEqual(result.value("config"), "b.conf", "the last one wins")
        XCTAssertTrue(result.has("verbose"))
        XCTAssertEqual(result.remaining, ["operand"])
        XCTAssertEqual(
            try parsed(["-vc", "x"]).given, [.init(name: "verbose", value: nil), .init(name: "config", value: "x")])
        // GLib keeps "--" when what follows looks like an option.
        XCTAssertEqual(try parsed(["--", "--demo"]).remaining, ["--", "--demo"], "after -- nothing is an option")
        XCTAssertEqual(try parsed(["--", "word"]).remaining, ["word"])
        XCTAssertEqual(try parsed(["--config="]).value("config"), "", "an empty value is the caller's to judge")
    }

    func testUnknownOptionIsAUsageError() {
        XCTAssertThrowsError(try parser.parse(["prog", "-v", "--frobnicate=1"])) { error in
            let failure = error as? CommandLineParser.Failure
            XCTAssertEqual(failure?.kind, .unknownOption)
            XCTAssertEqual(failure?.option, "--frobnicate")
            XCTAssertEqual(failure?.message.isEmpty, false)
        }
        XCTAssertThrowsError(try parser.parse(["prog", "-x"])) { error in
            XCTAssertEqual((error as? CommandLineParser.Failure)?.option, "-x")
        }
    }

    func testUnknownOptionsCanBeKeptForTheCallersOwnMessage() throws {
        var keeping = parser
        keeping.keepsUnknownOptions = true
        let result = try parsed(["--api-secret=rs_x", "-v", "word"], keeping)
        XCTAssertEqual(result.remaining, ["--api-secret=rs_x", "word"])
        XCTAssertEqual(result.given, [.init(name: "verbose", value: nil)])
    }

    func testMissingValueNamesTheOption() {
        for (words, option) in [(["--config"], "--config"), (["-v", "-c"], "-c"), (["-vc"], "-c")] {
            XCTAssertThrowsError(try parser.parse(["prog"] + words), "\(words)") { error in
                let failure = error as? CommandLineParser.Failure
                XCTAssertEqual(failure?.kind, .missingValue, "\(words)")
                XCTAssertEqual(failure?.option, option, "\(words)")
            }
        }
    }

    func testHelpIsReturnedAsGLibsText() throws {
        for word in ["--help", "-h", "-?"] {
            guard case .help(let text) = try parser.parse(["prog", "--demo", word]) else {
                return XCTFail("\(word) should ask for help")
            }
            XCTAssertTrue(text.hasPrefix("Usage:\n"), text)
            XCTAssertTrue(text.contains("Does things."), text)
            XCTAssertTrue(text.contains("-c, --config=FILE"), text)
            XCTAssertTrue(text.contains("-h, --help"), text)
            XCTAssertEqual(text, parser.helpText())
        }
        var narrow = parser
        narrow.helpOptions = ["--help"]
        XCTAssertThrowsError(try narrow.parse(["prog", "-?"]), "-? is an unknown option for this caller")
        XCTAssertEqual(try parsed(["--", "--help"]).remaining, ["--", "--help"], "after --: an operand")
    }
}
