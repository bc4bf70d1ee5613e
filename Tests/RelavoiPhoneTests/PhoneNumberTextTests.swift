import RelavoiPhone
import Testing

/// Debian's libphonenumber through the C shim.
struct PhoneNumberTextTests {
    @Test(arguments: [
        ("+2348000000001", "+234 800 000 0001"),
        ("+2348031234567", "+234 803 123 4567"),
        ("+14155550123", "+1 415-555-0123"),
        ("+442079460018", "+44 20 7946 0018"),
        ("+33612345678", "+33 6 12 34 56 78"),
        ("+5511912345678", "+55 11 91234-5678"),
        // Already grouped, or grouped otherwise: the same text comes out.
        ("+234 800 000 0001", "+234 800 000 0001"),
        ("+234-800-000-0001", "+234 800 000 0001"),
    ])
    func groupsValidNumbers(input: String, expected: String) {
        #expect(PhoneNumberText.international(input) == expected)
    }

    @Test(arguments: [
        "", "+", "abc", "2348000000001", "08031234567", "+15550100", "+999123456789", "+2348",
        "+23480000000011111111", "tel:+2348000000001", "+234\u{0}8000000001",
        String(repeating: "9", count: 200), "+" + String(repeating: "1", count: 70), "☎️ +2348000000001",
    ])
    func returnsWhatItCannotParseAsReceived(input: String) {
        #expect(PhoneNumberText.international(input) == input)
    }

    /// Opened with dlopen, not linked: a missing or other libphonenumber would
    /// leave every number unformatted, which the tests above would not say why.
    @Test func opensLibphonenumberOnFirstUse() {
        #expect(PhoneNumberText.isAvailable)
        #expect(PhoneNumberText.international("+2348000000001") == "+234 800 000 0001")
    }

    @Test func manyThreadsAtOnce() async {
        await withTaskGroup(of: String.self) { group in
            for _ in 0..<200 { group.addTask { PhoneNumberText.international("+2348000000001") } }
            for await text in group { #expect(text == "+234 800 000 0001") }
        }
    }
}
