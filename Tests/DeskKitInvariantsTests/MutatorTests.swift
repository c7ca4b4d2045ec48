import DeskKitInvariants
import Testing

@testable import DeskKitModel

@Suite("Mutator")
struct MutatorTests {
    static let inputs = [
        #"{"message_id": 1, "type": "MESG", "custom_type": "SENDBIRD_DESK_RICH_MESSAGE", "message": "x", "data": "{\"type\": \"SENDBIRD_DESK_CUSTOMER_SATISFACTION\", \"body\": {\"state\": \"CONFIRMED\", \"customerSatisfactionScore\": 4, \"ticketId\": 9}}"}"#,
        #"{"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url": "https://a.example/", "title": "T"}}"#,
    ]

    @Test func everyMutationAppearsAndDecodingSurvivesIt() {
        let variants = Mutator(seed: 5).variants(of: Self.inputs, count: 2_000)
        #expect(Set(variants.map(\.mutation)) == Set(Mutator.Mutation.allCases))
        for v in variants {
            let lenient = DeskMessage(jsonBytes: v.bytes.span)
            let strict = DeskMessage(jsonBytes: v.bytes.span, options: .strict)
            #expect(lenient.content.kind == strict.content.kind)
            _ = DeskPayload.decode(bytes: v.bytes, expectsPayload: true, options: .strict)
        }
    }

    @Test func sameSeedSameVariants() {
        #expect(
            Mutator(seed: 1).variants(of: Self.inputs, count: 100)
                == Mutator(seed: 1).variants(of: Self.inputs, count: 100))
        #expect(
            Mutator(seed: 1).variants(of: Self.inputs, count: 100)
                != Mutator(seed: 2).variants(of: Self.inputs, count: 100))
    }
}

@Suite("Mutator streams")
struct MutatorStreamTests {
    @Test func theStreamGivesTheSameVariantsOneAtATime() {
        let inputs = [
            #"{"message_id": 1, "data": "{\"type\":\"SENDBIRD_DESK_URL_PREVIEW\",\"body\":{\"url\":\"https://a.example\"}}"}"#
        ]
        let stream = Mutator(seed: 9).stream(of: inputs, count: 300)
        #expect(stream.hasInputs)
        #expect(Array(stream) == Mutator(seed: 9).variants(of: inputs, count: 300))
        // A count far beyond memory costs nothing until iterated.
        var iterator = Mutator(seed: 9).stream(of: inputs, count: Int.max).makeIterator()
        #expect(iterator.next() == Mutator(seed: 9).variants(of: inputs, count: 1).first)
        #expect(!Mutator(seed: 1).stream(of: ["not json"], count: 5).hasInputs)
    }
}
