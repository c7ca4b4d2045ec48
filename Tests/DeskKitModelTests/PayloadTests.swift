import DeskKitInvariants
import Testing
import DeskKitTestSupport

@testable import DeskKitModel

@Suite("Typed payloads")
struct PayloadTests {
    @Test func urlPreviewReadsBothSiteNameSpellingsAndEmptyStringsAsAbsent() {
        let d = DeskPayload.decode(
            #"{"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url": "https://a.example/", "siteName": "A", "title": "", "image": null}}"#
        )
        #expect(d.content == .urlPreview(URLPreview(url: "https://a.example/", siteName: "A")))
        #expect(d.encoding == .json)
        guard case .urlPreview(let p) = d.content else { return }
        #expect(!p.isRenderableOnWeb)
    }

    @Test func urlPreviewCarriesItsImagesSizeBothWays() {
        let sized = URLPreview(
            url: "https://a.example/", title: "T", image: "https://a.example/i.png", imageWidth: 1200,
            imageHeight: 630)
        let data = DeskPayload.encode(.urlPreview(sized))
        #expect(data.contains(#""image_width":1200,"image_height":630"#))
        let read = DeskPayload.decode(data)
        #expect(read.content == .urlPreview(sized) && read.problems.isEmpty)
        #expect(read.content.jsonValue["image_width"] == 1200 && read.content.jsonValue["image_height"] == 630)
        // Without a size (or an image), neither the payload nor the value has the members: they are as they were.
        let plain = URLPreview(url: "https://a.example/", title: "T", image: "https://a.example/i.png")
        #expect(!DeskPayload.encode(.urlPreview(plain)).contains("image_width"))
        #expect(DeskContent.urlPreview(plain).jsonValue.objectValue?.count == 5)
        let imageless = URLPreview(url: "https://a.example/", title: "T", imageWidth: 10, imageHeight: 10)
        #expect(!DeskPayload.encode(.urlPreview(imageless)).contains("image_width"))
    }

    @Test func urlPreviewSizesOutOfRangeOrHalfGivenAreNoSize() {
        let body =
            #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://a.example/","image":"https://a.example/i.png","#
        let tooLarge = DeskPayload.decode(body + #""image_width":100001,"image_height":5}}"#, options: .strict)
        guard case .urlPreview(let p) = tooLarge.content else { Issue.record("\(tooLarge.content)"); return }
        #expect(p.imageWidth == nil && p.imageHeight == nil)
        #expect(tooLarge.problems.map(\.path) == ["$.body.image_width"] && tooLarge.problems[0].code == .outOfRange)
        let half = DeskPayload.decode(body + #""image_width":640}}"#)
        #expect(half.content == .urlPreview(URLPreview(url: "https://a.example/", image: "https://a.example/i.png")))
        let wrongType = DeskPayload.decode(body + #""image_width":"wide","image_height":5}}"#, options: .strict)
        #expect(wrongType.problems.map(\.path) == ["$.body.image_width"])
    }

    @Test func previewEndpointAnswerIsReadNestedOrNot() {
        let flat: JSONValue = ["url": "https://a.example/", "title": "T", "siteName": "S"]
        let nested: JSONValue = ["data": flat]
        let expected = URLPreview(url: "https://a.example/", siteName: "S", title: "T")
        #expect(URLPreview(previewEndpointResponse: flat) == expected)
        #expect(URLPreview(previewEndpointResponse: nested) == expected)
        #expect(URLPreview(previewEndpointResponse: ["title": "no url"]) == nil)
    }

    @Test func csatAcceptsStatusAndStringScore() {
        let d = DeskPayload.decode(
            #"{"type":"SENDBIRD_DESK_CUSTOMER_SATISFACTION","body":{"status":"CONFIRMED","customerSatisfactionScore":" 4 ","customerSatisfactionComment":"","ticketId":"77"}}"#
        )
        #expect(d.content == .customerSatisfaction(CustomerSatisfaction(state: .confirmed, score: 4, ticketID: 77)))
        #expect(d.problems.isEmpty)
    }

    @Test func csatOutOfRangeScoreIsKeptAndReported() {
        let d = DeskPayload.decode(
            #"{"type":"SENDBIRD_DESK_CUSTOMER_SATISFACTION","body":{"state":"CONFIRMED","customerSatisfactionScore":6}}"#
        )
        #expect(d.content == .customerSatisfaction(CustomerSatisfaction(state: .confirmed, score: 6)))
        #expect(
            d.problems == [
                PayloadProblem(.outOfRange, at: "$.body.customerSatisfactionScore", "score 6 is outside 1–5")
            ])
    }

    @Test func legacyClosureTypeIsAClosureInquiry() {
        let d = DeskPayload.decode(#"{"type": "SENDBIRD_DESK_INQUIRE_CLOSE_TICKET", "body": {"state": "DECLINED"}}"#)
        #expect(d.content == .closureInquiry(ClosureInquiry(state: .declined)))
    }

    @Test func systemMessageTypesTicketAndTransfer() throws {
        let data = #"""
            {"type": "SYSTEM_MESSAGE_TICKET_TRANSFERRED_BY_AGENT",
             "ticket": {"id": 9007199254740993, "channelUrl": "c1", "status2": "ACTIVE", "priority": "LOW",
                        "customFields": [{"key": "plan", "value": 3}], "relatedChannels": "[{\"channel_url\": \"c0\", \"name\": \"old\"}]",
                        "recentAssignment": {"agent": {"id": 78, "displayName": "Bo"}, "unreadCount": 1}, "extra": true},
             "transfer": {"fromAssignment": {"agent": {"id": 77}}, "toAssignment": {"agent": {"id": 78}}, "note": "x"}}
            """#
        let d = DeskPayload.decode(data)
        guard case .systemMessage(let s) = d.content else {
            Issue.record("not a system message: \(d.content)")
            return
        }
        #expect(s.kind.actor == "AGENT")
        #expect(!s.kind.closesTicket)
        let ticket = try #require(s.ticket)
        #expect(ticket.id == 9_007_199_254_740_993)
        #expect(ticket.channelURL == "c1")
        #expect(ticket.customFields == [Ticket.CustomField(key: "plan", value: 3)])
        #expect(ticket.relatedChannels == [Ticket.RelatedChannel(channelURL: "c0", name: "old")])
        #expect(ticket.recentAssignment?.agent?.displayName == "Bo")
        #expect(d.payload?["ticket"]?["extra"] == true, "members not modelled stay in the payload")
        #expect(s.transfer?.fromAssignment?.agent?.id == 77)
        #expect(s.transfer?.toAssignment?.agent?.id == 78)
        #expect(d.payload?["transfer"]?["note"] == "x")
    }

    @Test(arguments: [
        ("SYSTEM_MESSAGE_TICKET_CLOSED_BY_PLATFORM_API", true, "PLATFORM_API"),
        ("TICKET_CLOSE", true, nil),
        ("TICKET_ASSIGN", false, nil),
        ("SYSTEM_MESSAGE_TICKET_REOPENED_BY_CUSTOMER", false, "CUSTOMER"),
    ])
    func systemKindFacts(_ type: String, _ closes: Bool, _ actor: String?) {
        let kind = SystemMessage.Kind(rawValue: type)
        #expect(kind.closesTicket == closes)
        #expect(kind.actor == actor)
        #expect(SystemMessage.Kind.isSystemType(type))
    }

    @Test func unknownTypesAreKeptWhole() {
        let d = DeskPayload.decode(#"{"type": "ACME_CARD", "body": {"n": 1}}"#)
        #expect(
            d.content == .unknown(UnknownPayload(type: "ACME_CARD", json: ["type": "ACME_CARD", "body": ["n": 1]])))
    }

    @Test func malformedKeepsTheDataAndSaysWhy() {
        let data = #"{"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url":"#
        let d = DeskPayload.decode(data)
        guard case .malformed(let m) = d.content else {
            Issue.record("not malformed")
            return
        }
        #expect(m.data == data)
        #expect(m.reason.code == .invalidJSON)
        #expect(m.reason.message.hasSuffix("at byte \(data.utf8.count)"))
    }

    @Test func textIsPlainUnlessAPayloadIsExpected() {
        #expect(DeskPayload.decode("hello there").content == .plain)
        #expect(DeskPayload.decode("hello there").encoding == .text)
        let strict = DeskPayload.decode("hello, there!", expectsPayload: true)
        #expect(strict.content.kind == .malformed)
        #expect(strict.problems.map(\.code) == [.invalidBase64])
        // Valid base64 that decodes to something that is not JSON.
        #expect(DeskPayload.decode("hello there", expectsPayload: true).problems.map(\.code) == [.notJSON])
        let rich = DeskPayload.decode("hello", customType: DeskPayload.richMessageCustomType)
        #expect(rich.problems.map(\.code) == [.invalidBase64])
    }
}

@Suite("Encoding and round trips")
struct RoundTripTests {
    static let alphabet: [Character] = Array("aZ09 -_/.:?&=#\"\\'\n\t\u{01}éß日本😀\u{7F}<>{}[]")

    func randomString(_ rng: inout SplitMix64, allowEmpty: Bool = false) -> String {
        let n = Int.random(in: (allowEmpty ? 0 : 1)...24, using: &rng)
        return String((0..<n).map { _ in Self.alphabet.randomElement(using: &rng)! })
    }

    func maybe(_ rng: inout SplitMix64) -> String? { Bool.random(using: &rng) ? randomString(&rng) : nil }

    func randomPayload(_ rng: inout SplitMix64) -> RichPayload {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            return .urlPreview(
                URLPreview(
                    url: "https://" + randomString(&rng), siteName: maybe(&rng), title: maybe(&rng),
                    description: maybe(&rng), image: maybe(&rng)))
        case 1:
            return .closureInquiry(
                ClosureInquiry(
                    state: ClosureInquiry.State.known.randomElement(using: &rng)!,
                    ticketID: Bool.random(using: &rng) ? Int64.random(in: .min ... .max, using: &rng) : nil))
        default:
            return .customerSatisfaction(
                CustomerSatisfaction(
                    state: CustomerSatisfaction.State.known.randomElement(using: &rng)!,
                    score: Bool.random(using: &rng) ? Int64.random(in: 1...5, using: &rng) : nil, comment: maybe(&rng),
                    ticketID: Bool.random(using: &rng) ? Int64.random(in: 0 ... .max, using: &rng) : nil))
        }
    }

    @Test(arguments: DataForm.allCases)
    func decodeOfEncodeIsTheIdentity(_ form: DataForm) async throws {
        try await onThreadOfItsOwn {
            var rng = SplitMix64(seed: form == .json ? 1 : 2)
            for _ in 0..<2_000 {
                let payload = randomPayload(&rng)
                let data = DeskPayload.encode(payload, as: form)
                let decoded = DeskPayload.decode(data, customType: DeskPayload.richMessageCustomType, options: .strict)
                #expect(decoded.content == payload.content, "\(data)")
                // Random URLs may be unsafe (spaces, controls): reported, and only that.
                var unsafe = false
                if case .urlPreview(let p) = payload {
                    unsafe = p.safeURL == nil || (p.image != nil && p.safeImageURL == nil)
                }
                #expect(decoded.problems.allSatisfy { $0.code == .unsafeURL }, "\(decoded.problems)")
                #expect(decoded.problems.isEmpty == !unsafe, "\(decoded.problems)")
                #expect(decoded.encoding.form == (form == .json ? .json : .base64))
            }
        }
    }

    @Test func outgoingMessageUsesTheRichCustomType() throws {
        let message = DeskPayload.message(
            .closureInquiry(ClosureInquiry(state: .confirmed, ticketID: 123)), text: "Yes", as: .json)
        #expect(message.customType == "SENDBIRD_DESK_RICH_MESSAGE")
        #expect(message.messageType == "MESG")
        #expect(
            message.data
                == #"{"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE","body":{"state":"CONFIRMED","ticketId":123}}"#)
        let roundTrip = DeskMessage(json: message.json)
        #expect(roundTrip.content == .closureInquiry(ClosureInquiry(state: .confirmed, ticketID: 123)))
    }

    @Test func urlPreviewIsWrittenWithEveryFieldAsAString() {
        let data = DeskPayload.encode(.urlPreview(URLPreview(url: "https://a.example/", title: "T")))
        #expect(
            data
                == #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":{"url":"https://a.example/","site_name":"","title":"T","description":"","image":""}}"#
        )
    }
}

@Suite("Visibility")
struct VisibilityTests {
    func message(_ type: String, customType: String? = nil, data: String) -> DeskMessage {
        var o: JSONObject = ["type": .string(type), "message": "m", "data": .string(data)]
        if let customType { o["custom_type"] = .string(customType) }
        return DeskMessage(json: .object(o))
    }

    @Test func customersDoNotSeeSystemMessages() {
        let system = message(
            "ADMM", customType: DeskPayload.adminMessageCustomType, data: #"{"type": "SYSTEM_MESSAGE_X"}"#)
        #expect(system.visibility(for: .customer) == .hidden(.systemCustomType))
        #expect(system.visibility(for: .agent) == .visible)
        let legacy = message("ADMM", customType: "ADMIN_MESSAGE_CUSTOM_TYPE", data: "")
        #expect(legacy.visibility(for: .customer) == .hidden(.systemCustomType))
        let byType = message("ADMM", data: Base64.encode(Array(#"{"type":"TICKET_TRANSFER"}"#.utf8)))
        #expect(byType.visibility(for: .customer) == .hidden(.systemDataType))
    }

    @Test func reasonsHaveStableNames() {
        #expect(Visibility.HiddenReason.allCases.map(\.rawValue) == ["system_custom_type", "system_data_type"])
        for reason in Visibility.HiddenReason.allCases {
            #expect(Visibility.HiddenReason(rawValue: reason.rawValue) == reason)
        }
        #expect(Visibility.HiddenReason(rawValue: "spam") == nil)
        #expect(Visibility.HiddenReason.systemDataType != .systemCustomType)
    }

    @Test func customersSeeEverythingElse() {
        for (t, data) in [
            ("ADMM", #"{"type": "NOTIFICATION_WELCOME"}"#), ("MESG", "not json {"), ("MESG", ""),
            ("MESG", #"{"type": "SENDBIRD_DESK_CUSTOMER_SATISFACTION", "body": {"state": "WAITING"}}"#),
            ("MESG", #"{"type": "ASSIGN"}"#), ("MESG", #"{"type": "CLOSE"}"#),
        ] {
            #expect(message(t, data: data).isVisible(to: .customer), "\(data)")
        }
    }

    @Test func closingTypesTellTheClient() {
        #expect(message("ADMM", data: #"{"type": "TICKET_CLOSE"}"#).closesTicket)
        #expect(message("ADMM", data: #"{"type":"SYSTEM_MESSAGE_TICKET_CLOSED_BY_SYSTEM"}"#).closesTicket)
        #expect(message("ADMM", data: #"{"type":"NOTIFICATION_MANUAL_CLOSED"}"#).closesTicket)
        #expect(!message("ADMM", data: #"{"type":"SYSTEM_MESSAGE_TICKET_REOPENED_BY_AGENT"}"#).closesTicket)
        #expect(!message("MESG", data: "TICKET_CLOSE").closesTicket)
    }
}

@Suite("DeskMessageDecoder")
struct DecoderTests {
    /// Envelopes of every kind, big and small, good and broken, in an order that makes the decoder's memory
    /// grow and then serve smaller messages.
    static func mixedEnvelopes() -> [[UInt8]] {
        var lines = CorpusCase.all().filter { $0.file.hasSuffix(".envelope.json") }.map(\.bytes)
        let ticket =
            #"{\"id\": 1, \"channelUrl\": \"c\u00e9\", \"customFields\": [{\"key\": \"k\", \"value\": [1, {}]}]}"#
        let big = String(repeating: #"{\"t\": \"\\u00e9\\n\"}, "#, count: 2_000)
        lines += [
            #"{"type": "ADMM", "custom_type": "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", "data": "{\"type\": \"SYSTEM_MESSAGE_TICKET_CLOSED_BY_AGENT\", \"ticket\": \#(ticket)}"}"#,
            #"{"type": "MESG", "data": "{\"type\": \"X\", \"list\": [\#(big) 0]}", "message": "\#(String(repeating: "\\\"", count: 3_000))"}"#,
            #"{"type": "MESG", "data": "eyJ0eXBlIjogIk5PVElGSUNBVElPTl9XRUxDT01FIn0="}"#,
            #"{"type": "MESG", "data": "{\"type\": "#,
            #"{"data": 5}"#, "[]", "", #"{"type": "MESG", "message": "\u00e9\n"}"#,
        ].map { Array($0.utf8) }
        return lines + lines.reversed()
    }

    @Test func aReusedDecoderGivesWhatAFreshDecodeGives() {
        let lines = Self.mixedEnvelopes()
        #expect(lines.count > 40)
        var decoder = DeskMessageDecoder()
        for line in lines {
            let reused = line.withUnsafeBufferPointer { decoder.decode($0) }
            let fresh = line.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0) }
            #expect(reused == fresh, "\(String(decoding: line.prefix(80), as: UTF8.self))")
        }
        #expect(lines.contains { l in l.withUnsafeBufferPointer { decoder.decode($0).content.kind == .systemMessage } })
    }

    /// The memory kept between messages grows to fit a big message and is let go after it.
    @Test func workingMemoryIsBoundedAfterABigMessage() {
        var decoder = DeskMessageDecoder(maxRetainedBytes: 64 * 1024)
        let small = Array(#"{"type": "MESG", "data": "{\"type\": \"NOTIFICATION_WELCOME\"}"}"#.utf8)
        _ = small.withUnsafeBufferPointer { decoder.decode($0) }
        let kept = decoder.retainedBytes
        #expect(kept <= 64 * 1024)
        let items = String(repeating: #"{\"k\": \"\\n\"}, "#, count: 20_000)
        let big = Array(#"{"type": "MESG", "data": "{\"type\": \"X\", \"list\": [\#(items) 0]}"}"#.utf8)
        let message = big.withUnsafeBufferPointer { decoder.decode($0) }
        #expect(message.content.kind == .unknown)
        #expect(decoder.retainedBytes == kept)  // the big message's memory was let go
        #expect(small.withUnsafeBufferPointer { decoder.decode($0) }.content.kind == .notification)
        #expect(DeskMessageDecoder().maxRetainedBytes == 1 << 20)
    }

    /// Two copies of one decoder used at the same time on two threads: each must get memory of its own.
    @Test func copiesOfADecoderDecodeConcurrently() async {
        let lines = Self.mixedEnvelopes()
        let expected = lines.map { l in l.withUnsafeBufferPointer { DeskMessage(jsonBytes: $0, options: .strict) } }
        let decoder = DeskMessageDecoder(options: .strict)
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var copy = decoder
                    var wrong = 0
                    for _ in 0..<20 {
                        for (line, want) in zip(lines, expected)
                        where line.withUnsafeBufferPointer({ copy.decode($0) }) != want {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
