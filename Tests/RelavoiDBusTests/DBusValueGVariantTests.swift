import CGLib
import RelavoiGLib
import XCTest

@testable import RelavoiDBus

/// `DBusValue` ⇄ GVariant: every case survives the round trip with its
/// exact type, and values GLib would refuse are errors, not criticals.
final class DBusValueGVariantTests: XCTestCase {
    /// Builds, sinks, prints and reads back `value`.
    private func roundTrip(_ value: DBusValue, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let variant = g_variant_ref_sink(try value.gvariant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(GVariantValues.signature(variant), value.signature, file: file, line: line)
        XCTAssertEqual(try DBusValue(gvariant: variant), value, file: file, line: line)
        let printed = g_variant_print(variant, 1)!
        defer { g_free(printed) }
        return String(cString: printed)
    }

    func testEveryBasicCaseRoundTrips() throws {
        XCTAssertEqual(try roundTrip(.byte(0xff)), "byte 0xff")
        XCTAssertEqual(try roundTrip(.bool(true)), "true")
        XCTAssertEqual(try roundTrip(.bool(false)), "false")
        XCTAssertEqual(try roundTrip(.int32(.min)), "-2147483648")
        XCTAssertEqual(try roundTrip(.uint32(.max)), "uint32 4294967295")
        XCTAssertEqual(try roundTrip(.int64(.min)), "int64 -9223372036854775808")
        XCTAssertEqual(try roundTrip(.uint64(.max)), "uint64 18446744073709551615")
        XCTAssertEqual(try roundTrip(.double(-0.5)), "-0.5")
        XCTAssertEqual(try roundTrip(.string("Rider \"Bo\" ✔")), "'Rider \"Bo\" ✔'")
        XCTAssertEqual(try roundTrip(.string("")), "''")
        XCTAssertEqual(try roundTrip(.objectPath("/com/relavoi/Agent")), "objectpath '/com/relavoi/Agent'")
    }

    func testContainersRoundTrip() throws {
        XCTAssertEqual(try roundTrip(.variant(.int32(7))), "<7>")
        XCTAssertEqual(try roundTrip(.variant(.variant(.string("x")))), "<<'x'>>")
        XCTAssertEqual(try roundTrip(.tuple([])), "()")
        XCTAssertEqual(try roundTrip(.tuple([.string("a"), .bool(true), .int64(3)])), "('a', true, int64 3)")
        XCTAssertEqual(try roundTrip(.array(elementSignature: "s", [])), "@as []")
        XCTAssertEqual(try roundTrip(.array(elementSignature: "(iiay)", [])), "@a(iiay) []")
        XCTAssertEqual(
            try roundTrip(.array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(1), .byte(2)])])),
            "[[byte 0x01, 0x02]]")
        XCTAssertEqual(
            try roundTrip(.dictionary([("label", .string("Rider")), ("duration", .int64(61))])),
            "{'label': <'Rider'>, 'duration': <int64 61>}")
        XCTAssertEqual(
            try roundTrip(.array(elementSignature: "{sx}", [.dictEntry(.string("banners"), .int64(1))])),
            "{'banners': int64 1}")
        XCTAssertEqual(
            try roundTrip(.array(elementSignature: "a{sv}", [.dictionary([]), .dictionary([("ok", .bool(true))])])),
            "[@a{sv} {}, {'ok': <true>}]")
    }

    /// Calls, replies and signals send their values as one tuple, and no values as an empty body.
    func testAMessageBodyIsOneTupleOrNone() throws {
        XCTAssertNil(try [DBusValue]().messageBody())
        let body = g_variant_ref_sink(try XCTUnwrap(try [.string("a"), .uint32(2)].messageBody()))!
        defer { g_variant_unref(body) }
        XCTAssertEqual(GVariantValues.signature(body), "(su)")
        XCTAssertEqual(try DBusValue(gvariant: body), .tuple([.string("a"), .uint32(2)]))
        XCTAssertThrowsError(try [.objectPath("not a path")].messageBody())
    }

    func testAStringIsSentUpToItsFirstNUL() throws {
        let variant = g_variant_ref_sink(try DBusValue.string("ab\u{0}cd").gvariant())!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(try DBusValue(gvariant: variant), .string("ab"))
    }

    func testValuesGLibWouldRefuseAreErrors() {
        func message(_ value: DBusValue) -> String? {
            do {
                let variant = try value.gvariant()
                g_variant_unref(g_variant_ref_sink(variant))
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message(.objectPath("not a path")), "\"not a path\" is not an object path")
        XCTAssertEqual(message(.objectPath("")), "\"\" is not an object path")
        XCTAssertEqual(
            message(.array(elementSignature: "s", [.string("a"), .int32(1)])), "array of s holds a i")
        XCTAssertEqual(message(.array(elementSignature: "(s", [])), "array element type \"(s\" is not a D-Bus type")
        XCTAssertEqual(message(.array(elementSignature: "", [])), "array element type \"\" is not a D-Bus type")
        XCTAssertEqual(
            message(.dictEntry(.variant(.string("k")), .bool(true))), "dictionary key of type v is not basic")
        // Deep inside a container: nothing is built, the error names the bad part.
        XCTAssertEqual(
            message(
                .tuple([
                    .string("ok"), .variant(.array(elementSignature: "o", [.objectPath("/ok"), .objectPath("x")])),
                ])),
            "\"x\" is not an object path")
    }

    func testGVariantsOfTypesWithoutACaseAreErrors() throws {
        for text in ["int16 3", "uint16 3", "handle 1", "@mi 5", "@ms nothing", "signature 'ss'", "(int16 3,)"] {
            let variant = g_variant_ref_sink(g_variant_parse(nil, text, nil, nil, nil))!
            defer { g_variant_unref(variant) }
            XCTAssertThrowsError(try DBusValue(gvariant: variant), text) { error in
                XCTAssertTrue(
                    (error as? DBusValueError)?.description.hasPrefix("no DBusValue for the D-Bus type") ?? false,
                    "\(text): \(error)")
            }
        }
    }

    func testParsedGVariantsReadAsTheirCases() throws {
        let variant = g_variant_ref_sink(
            g_variant_parse(nil, "([('s', <objectpath '/a'>)], @a{sx} {}, 2.5)", nil, nil, nil))!
        defer { g_variant_unref(variant) }
        XCTAssertEqual(
            try DBusValue(gvariant: variant),
            .tuple([
                .array(elementSignature: "(sv)", [.tuple([.string("s"), .variant(.objectPath("/a"))])]),
                .array(elementSignature: "{sx}", []), .double(2.5),
            ]))
    }

    func testAccessorsSayNilForOtherCases() {
        XCTAssertEqual(DBusValue.string("a").stringValue, "a")
        XCTAssertNil(DBusValue.int32(1).stringValue)
        XCTAssertNil(DBusValue.string("true").boolValue)
        XCTAssertNil(DBusValue.int64(1).int32Value)
        XCTAssertNil(DBusValue.int32(1).int64Value)
        XCTAssertNil(DBusValue.variant(.tuple([])).children)
        XCTAssertEqual(DBusValue.tuple([.bool(true)]).children, [.bool(true)])
    }
}
