import Testing

@testable import RelavoiCore
@testable import RelavoiMachines

struct SecretScrubberTests {
    @Test func takesOutTheSecretAndTheSocketToken() {
        var scrubber = SecretScrubber(apiSecret: "rs_0123")
        #expect(scrubber.scrub("bad pair rs_0123 at rs_0123") == "bad pair <secret> at <secret>")
        #expect(scrubber.scrub("wss://h/ws?token=tok_9") == "wss://h/ws?token=tok_9")
        scrubber.socketToken = "tok_9"
        #expect(scrubber.scrub("wss://h/ws?token=tok_9 rs_0123") == "wss://h/ws?token=<token> <secret>")
    }

    @Test func emptySecretsLeaveTextAlone() {
        let scrubber = SecretScrubber(apiSecret: "", socketToken: "")
        #expect(scrubber.scrub("nothing to hide") == "nothing to hide")
    }
}
