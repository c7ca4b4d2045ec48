import DeskKitInvariants
import DeskKitTestSupport
import Testing

@testable import DeskKitModel

/// `DeskMessageDecoder.visibility(of:for:)` reads only what visibility depends on; it must answer as a
/// full decode does, for every audience, on the corpus's envelopes and on thousands of malformed variants.
@Suite("Visibility without decoding")
struct VisibilityScanTests {
    /// What a full decode says: the problem when the line is not a message (malformed at `$`), else who sees it.
    static func byDecoding(_ bytes: [UInt8], _ audience: Audience) -> Result<Visibility, PayloadProblem> {
        let message = bytes.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0) }
        if case .malformed(let m) = message.content, m.reason.path == "$" { return .failure(m.reason) }
        return .success(message.visibility(for: audience))
    }

    /// The lines (their first 300 characters) on which the scan and a full decode disagree.
    static func disagreements(_ lines: [[UInt8]]) -> [String] {
        var decoder = DeskMessageDecoder()
        var wrong: [String] = []
        for line in lines {
            for audience in Audience.allCases {
                let scanned = line.withUnsafeBufferPointer { decoder.visibility(of: $0, for: audience) }
                if scanned != byDecoding(line, audience) {
                    wrong.append("\(audience): \(String(decoding: line, as: UTF8.self).prefix(300))")
                }
            }
        }
        return wrong
    }

    static func check(_ lines: [[UInt8]]) {
        for line in disagreements(lines) { Issue.record("the scan and a decode disagree for \(line)") }
    }

    @Test func answersAsDecodingOnTheCorpus() {
        let envelopes = CorpusCase.all().filter { $0.file.hasSuffix(".envelope.json") }
        #expect(envelopes.count >= 20)
        Self.check(envelopes.map(\.bytes))
    }

    /// Seconds of CPU: done on a thread of its own (`onThreadOfItsOwn`), asserted on the test's task.
    @Test func answersAsDecodingOnMalformedVariants() async throws {
        let inputs =
            CorpusCase.all().filter { $0.file.hasSuffix(".envelope.json") }.map {
                String(decoding: $0.bytes, as: UTF8.self)
            }
            + [
                #"{"custom_type": "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", "data": 5}"#,
                #"{"custom_type": "SENDBIRD_DESK_ADMIN\u005fMESSAGE_CUSTOM_TYPE", "data": ""}"#,
                #"{"data": "{\"type\": \"SYSTEM_MESSAGE_SOMETHING_NEW\"}"}"#,
                #"{"data": "eyJ0eXBlIjogIlRJQ0tFVF9DTE9TRSJ9"}"#,
                #"{"data": "{\"type\": \"A\", \"type\": \"TICKET_ASSIGN\"}"}"#,
                #"{"data": "[{\"type\": \"TICKET_ASSIGN\"}]"}"#,
                #"{"custom_type": 7, "data": "{\"type\": 7}"}"#,
            ]
        let wrong = try await onThreadOfItsOwn {
            Self.disagreements(
                Mutator(seed: 11).variants(of: inputs, count: 20_000).map(\.bytes) + inputs.map { Array($0.utf8) })
        }
        #expect(wrong.isEmpty, "the scan and a decode disagree for \(wrong.count): \(wrong.prefix(5))")
    }
}
