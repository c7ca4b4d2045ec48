import DeskKitCards
import DeskKitModel
import Foundation
import Testing
import DeskKitTestSupport

@Suite("deskkit card")
struct CardCommandTests {
    @Test func eachLineGetsItsCardAndItsHTMLInEveryShape() async throws {
        let body =
            #"{"url":"https://example.com/a","site_name":"Example","title":"  مرحبا  ","image":"https://example.com/i.png","image_width":120,"image_height":60}"#
        let payload = #"{"type":"SENDBIRD_DESK_URL_PREVIEW","body":\#(body)}"#
        let data = try String(
            decoding: JSONSerialization.data(withJSONObject: payload, options: .fragmentsAllowed), as: UTF8.self)
        let envelope = #"{"type":"MESG","custom_type":"SENDBIRD_DESK_RICH_MESSAGE","data":\#(data)}"#
        let base64 = "\"" + Data(payload.utf8).base64EncodedString() + "\""
        let plain = #"{"type":"MESG","message":"no card"}"#
        let r = try await CLI.run(
            ["card", "--max-title", "3"],
            stdin: [payload, envelope, data, base64, plain].joined(separator: "\n") + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 5)
        let expected = try #require(
            LinkCard(
                URLPreview(
                    url: "https://example.com/a", siteName: "Example", title: "  مرحبا  ",
                    image: "https://example.com/i.png", imageWidth: 120, imageHeight: 60),
                limits: .init(title: 3)))
        for line in r.lines.prefix(4) {
            let answer = try CLI.json(line)
            let card = try #require(answer["card"] as? [String: Any])
            #expect(card["link"] as? String == "https://example.com/a")
            #expect(card["host"] as? String == "example.com")
            let title = try #require(card["title"] as? [String: Any])
            #expect(
                title["text"] as? String == "مر…" && title["dir"] as? String == "rtl"
                    && title["clipped"] as? Bool == true)
            #expect((card["site"] as? [String: Any])?["text"] as? String == "Ex…")
            let image = try #require(card["image"] as? [String: Any])
            #expect(image["width"] as? Int == 120 && image["alt"] as? String == "")
            #expect(answer["html"] as? String == CardHTML.render(expected), "the card CardHTML draws")
        }
        let none = try CLI.json(r.lines[4])
        #expect(none["card"] is NSNull && none["html"] as? String == "")
    }

    @Test func urlsGetTheOneRulesVerdictAndWhy() async throws {
        let input = [
            #""https://example.com/a""#, #""/account/settings""#, #""https://0x7f.1/""#, "https://example.com/raw",
        ]
        let r = try await CLI.run(["card", "--urls"], stdin: input.joined(separator: "\n") + "\n")
        #expect(r.status == 0)
        let answers = try r.lines.map(CLI.json)
        #expect(answers.map { $0["safe"] as? Bool } == [true, false, false, true])
        #expect(
            answers.map { $0["url"] as? String } == [
                "https://example.com/a", "/account/settings", "https://0x7f.1/", "https://example.com/raw",
            ])
        #expect((answers[1]["problem"] as? String)?.contains("own address") == true)
        #expect(answers[0]["problem"] is NSNull)
    }

    /// Every URL of Corpus/urls gets the verdict `URLSafety` gives in process (the web module's and the schema's
    /// are compared with the command's by the web package's tests and Scripts/check_schemas.py).
    @Test func theURLCorpusHasTenThousandURLsOfEveryKind() async throws {
        try await onThreadOfItsOwn {
            let file = CLI.repositoryRoot.appendingPathComponent("Corpus/urls/urls.jsonl")
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            #expect(lines.count >= 10_000)
            let urls = try lines.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) as? String)
            }
            let safe = urls.filter(URLSafety.isSafe)
            let (safeCount, total) = (safe.count, urls.count)
            #expect(safeCount > 1_000 && total - safeCount > 5_000, "\(safeCount) safe of \(total)")
            let all = Set(urls)
            for relative in ["/account/settings", "//evil.com", "https:\\\\evil.com", "https://0x7F000001/p"] {
                let found = all.contains(relative)
                #expect(found, "\(relative)")
            }
        }
    }
}
