import Foundation
import DeskKitInvariants
import Testing
import DeskKitTestSupport

@testable import DeskKitModel

struct FormatCase: Sendable, CustomStringConvertible {
    let format: String
    let file: String
    let valid: Bool
    let kind: String?
    let problems: [String]
    var description: String { "\(format)/\(file)" }

    static func all() -> [FormatCase] {
        ["pyrus-webhook", "pyrus-auth", "livetex-webhook"].flatMap { format -> [FormatCase] in
            let url = repositoryRoot.appendingPathComponent("Corpus/\(format)/EXPECTED.jsonl")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { line in
                guard let o = try? JSONValue.parse(String(line)) else { return nil }
                return FormatCase(
                    format: format, file: o["file"]!.stringValue!, valid: o["valid"]!.boolValue!,
                    kind: o["kind"]?.stringValue,
                    problems: o["problems"]!.arrayValue!.compactMap(\.stringValue))
            }
        }
    }

    var bytes: [UInt8] {
        [UInt8]((try? Data(contentsOf: repositoryRoot.appendingPathComponent("Corpus/\(format)/\(file)"))) ?? Data())
    }
}

@Suite("Pyrus and LiveTex payloads")
struct OtherSystemsTests {
    @Test func corpusIsThere() { #expect(FormatCase.all().count >= 20) }

    @Test(arguments: FormatCase.all())
    func decodesAsExpected(_ c: FormatCase) {
        let valid: Bool
        let problems: [PayloadProblem]
        switch c.format {
        case "pyrus-webhook":
            let r = PyrusReplyWebhook.decode(c.bytes, options: .strict)
            (valid, problems) = (r.value != nil, r.problems)
        case "pyrus-auth":
            let r = PyrusAuthRequest.decode(
                c.bytes,
                contentType: c.file.hasSuffix(".txt") ? "application/x-www-form-urlencoded" : "application/json")
            (valid, problems) = (r.value != nil, r.problems)
        default:
            let r = LiveTexPush.decode(c.bytes, options: .strict)
            (valid, problems) = (r.value != nil, r.problems)
            if let kind = c.kind { #expect(r.value?.kind.rawValue == kind) }
        }
        #expect(valid == c.valid)
        #expect(problems.map { "\($0.code)@\($0.path)" } == c.problems)
    }

    /// A form is known by its content type in any case and with parameters; JSON, or no type and a body that
    /// starts with `{`, is JSON.
    @Test func pyrusAuthRequestTellsAFormByItsContentType() {
        let form = Array("app_id=a&user_id=u&security_key=k".utf8)
        let json = Array(#"{"app_id":"a","user_id":"u","security_key":"k"}"#.utf8)
        for type in [
            "application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded; charset=UTF-8",
            "application/x-www-form-urlencoded;charset=utf-8",
        ] {
            #expect(PyrusAuthRequest.decode(form, contentType: type).value?.userID == "u", "\(type)")
            #expect(PyrusAuthRequest.decode(json, contentType: type).value == nil, "\(type): JSON read as a form")
        }
        for type in ["application/json", "application/json; charset=utf-8", "text/x-www-form"] {
            #expect(PyrusAuthRequest.decode(json, contentType: type).value?.userID == "u", "\(type)")
        }
        #expect(PyrusAuthRequest.decode(json).value?.userID == "u")
        #expect(PyrusAuthRequest.decode(form).value?.userID == "u")
    }

    @Test func pyrusReplySummary() throws {
        let body = FormatCase.all().first { $0.file == "reply.json" }!.bytes
        let reply = try #require(PyrusReplyWebhook.decode(body).value)
        #expect(reply.ticketID == 12345)
        #expect(reply.token.userID == "user-42")
        #expect(reply.author?.avatarColor == "#ff8800")
        let s = reply.summary
        #expect(s.hasUnreadComments)
        #expect(s.lastCommentText == "Your refund is on its way: https://shop.example.com/refunds/777")
        #expect(s.lastCommentAttachmentsCount == 2)
        #expect(s.lastCommentAttachments == ["label.pdf", "photo.jpg"])
        #expect(s.utcTime == 1_714_558_830)
        let offset = try #require(
            PyrusReplyWebhook.decode(FormatCase.all().first { $0.file == "reply-offset-time.json" }!.bytes).value)
        #expect(offset.createdAtSeconds == 1_714_558_830.25)
        let epoch = try #require(
            PyrusReplyWebhook.decode(FormatCase.all().first { $0.file == "reply-android-epoch-ms.json" }!.bytes).value)
        #expect(epoch.createdAtSeconds == 1_714_558_830)
    }

    @Test func pyrusAuthorizationAnswers() async {
        func answer(_ body: String, _ type: String?, allowed: Bool) async -> Int {
            await PyrusAuthRequest.respond(to: Array(body.utf8), contentType: type) { request in
                allowed && request.userID == "user 42" && request.securityKey == "k+1"
            }.status
        }
        #expect(
            await answer(
                "app_id=a&user_id=user+42&security_key=k%2B1", "application/x-www-form-urlencoded", allowed: true)
                == 200)
        #expect(
            await answer(#"{"app_id":"a","user_id":"user 42","security_key":"k+1"}"#, "application/json", allowed: true)
                == 200)
        #expect(await answer(#"{"app_id":"a","user_id":"user 42","security_key":"wrong"}"#, nil, allowed: true) == 403)
        #expect(await answer(#"{"app_id":"a","user_id":"user 42"}"#, nil, allowed: true) == 400)
        #expect(await answer("user_id=%ZZ", nil, allowed: true) == 400)
        // Two hex digits, no sign: `%+f` and `%-0` are not escapes (Int parsing would read them as 15 and 0).
        #expect(await answer("app_id=a&user_id=user%+f&security_key=k", nil, allowed: true) == 400)
        #expect(await answer("app_id=a&user_id=user%-0&security_key=k", nil, allowed: true) == 400)
        // Split by bytes: `=` before a combining mark still separates the key (a `Character` split did not).
        let combining = PyrusAuthRequest.decode(Array("app_id=a&user_id=\u{301}u&security_key=k".utf8))
        #expect(combining.value?.userID == "\u{301}u")
        // Raw bytes that are not UTF-8 are refused like percent-encoded ones.
        #expect(
            PyrusAuthRequest.decode([UInt8]("app_id=a&user_id=".utf8) + [0xFF] + Array("&security_key=k".utf8)).value
                == nil)
    }

    @Test func liveTexNotificationText() throws {
        let push = LiveTexPush(
            version: "1", platform: "ios", to: "t", text: "See the receipt",
            url: "https://f.example/a/receipt.pdf?sig=1")
        #expect(push.kind == .fileWithComment)
        #expect(push.notificationText == "See the receipt\n📎 receipt.pdf")
        #expect(LiveTexPush(version: "1", platform: "android", to: "t", text: "Hi", url: nil).notificationText == "Hi")
    }
}

/// A Sendbird webhook's message is read in place on the body's tape (one parse): it is the message that
/// decoding the `payload` object on its own (with the top-level `type` when the payload has none) gives,
/// problems and their paths included, on the corpus's webhooks and thousands of mutations of them.
@Suite("Sendbird webhook: one parse")
struct SendbirdWebhookOneParseTests {
    static func separately(_ body: [UInt8], options: DecodingOptions) -> DeskMessage? {
        guard let o = try? JSONValue.parse(String(decoding: body, as: UTF8.self)),
            case .object(var envelope)? = o["payload"]
        else { return nil }
        if let type = o["type"]?.stringValue, envelope["type"] == nil {
            envelope.members.append(.init(key: "type", value: .string(type)))
        }
        return DeskMessage(json: .object(envelope), options: options)
    }

    @Test func theMessageIsTheSameAsThePayloadDecodedAlone() async throws {
        try await onThreadOfItsOwn {
            let folder = repositoryRoot.appendingPathComponent("Corpus/webhooks")
            let seeds =
                try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                .map { String(decoding: try Data(contentsOf: folder.appendingPathComponent($0)), as: UTF8.self) }
                + [
                    #"{"category": "group_channel:message_send", "type": "ADMM", "channel": {"channel_url": "c"}, "payload": {"message_id": 1, "custom_type": 5, "data": "{\"type\": \"SYSTEM_MESSAGE_TICKET_CLOSED\", \"ticket\": {\"id\": \"x\"}}"}}"#
                ]
            var compared = 0
            for body in seeds.map({ [UInt8]($0.utf8) })
                + Mutator(seed: 7).variants(of: seeds, count: 5_000).map(\.bytes)
            {
                for options in [DecodingOptions.lenient, .strict] {
                    guard let message = SendbirdWebhook.decode(body, options: options).value?.message else { continue }
                    #expect(
                        message == Self.separately(body, options: options), "\(String(decoding: body, as: UTF8.self))")
                    compared += 1
                }
            }
            #expect(compared > 1_000)
        }
    }

    /// The sender's language is a hint in its metadata: a string is taken, anything else is no language and
    /// no problem of the webhook's.
    @Test func aSendersLanguageIsTakenFromItsMetadataAndNeverFailsTheWebhook() throws {
        func read(_ metadata: String) throws -> SendbirdWebhook {
            let body = #"""
                {"category": "group_channel:message_send", "type": "MESG", "sender": {"user_id": "u", "metadata": \#(metadata)},
                 "payload": {"message_id": 1, "message": "hi"}, "channel": {"channel_url": "c"}}
                """#
            let (webhook, problems) = SendbirdWebhook.decode(Array(body.utf8))
            #expect(problems.isEmpty, "\(metadata): \(problems)")
            return try #require(webhook)
        }
        #expect(try read(#"{"language": "ru"}"#).senderLanguage == "ru")
        #expect(try read(#"{"language": "pt-BR, en;q=0.5", "plan": "gold"}"#).senderLanguage == "pt-BR, en;q=0.5")
        for other in ["{}", #"{"language": 7}"#, #"{"language": null}"#, #""ru""#, "[]", "null"] {
            #expect(try read(other).senderLanguage == nil, "\(other)")
        }
    }
}
